/// A scenario: what kind of load, how big, and what the simulated anchors send.
///
/// Loaded from a commented YAML file (see Config/scenarios/) with ``ScenarioLoader``; every
/// field has a default, and sizes can be overridden on the command line.
public struct ScenarioSpec: Sendable, Codable, Hashable {
    public var name: String
    public var kind: ScenarioKind
    /// Rooms (pk-showroom, churn; rounded up to an even number so rooms pair up).
    public var rooms: Int = 2
    /// Audience members per room (pk-showroom), or churning audience members per room (churn).
    public var audiencePerRoom: Int = 5
    /// Subscribers of the single publisher (fanout).
    public var subscribers: Int = 10
    /// How paired anchors see each other (pk-showroom).
    public var pkMode: PKMode = .link
    public var video = VideoProfile()
    public var audio = AudioProfile()
    public var churn = ChurnProfile()
    /// How much `--find-max` adds per step, and where it stops.
    public var findMaxStep: Int = 2
    public var findMaxLimit: Int = 200

    public init(name: String, kind: ScenarioKind) {
        self.name = name
        self.kind = kind
    }

    /// The load `--find-max` varies: rooms, or subscribers for fanout.
    public var load: Int {
        get { kind == .fanout ? subscribers : rooms }
        set {
            if kind == .fanout { subscribers = newValue } else { rooms = newValue }
        }
    }

    /// Rooms actually used: pk-showroom, pk-cluster and churn pair rooms, so an odd count is rounded up.
    public var effectiveRooms: Int {
        switch kind {
        case .fanout: 1
        case .pkShowroom, .pkCluster, .churn: max(2, rooms + rooms % 2)
        }
    }

    /// The sizes written in reports.
    public var sizes: [String: Int] {
        switch kind {
        case .pkShowroom, .pkCluster: ["rooms": effectiveRooms, "audiencePerRoom": audiencePerRoom, "anchors": effectiveRooms, "pkPairs": effectiveRooms / 2]
        case .fanout: ["rooms": 1, "publishers": 1, "subscribers": subscribers]
        case .churn: ["rooms": effectiveRooms, "churningAudiencePerRoom": audiencePerRoom, "anchors": effectiveRooms, "forwardPairs": effectiveRooms / 2]
        }
    }
}
