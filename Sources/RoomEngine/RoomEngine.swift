public import Protocol

/// The rooms of one relay as a pure state machine.
///
/// Every call takes the time and returns the actions it causes (events for sessions, changes for
/// the media plane); nothing here touches a socket or a clock, so scenarios are scripted in tests.
/// The control plane owns one engine and calls it serially.
public struct RoomEngine: Sendable {
    public var limits: RoomLimits
    var rooms: [String: Room] = [:]
    var sessions: [SessionID: SessionState] = [:]
    var sources: [UInt32: SourceLocation] = [:]
    var nextTrackId: UInt32 = 1
    var ssrcs: SSRCGenerator
    var forwards: [ForwardKey: Forward] = [:]
    var links: [UInt64: PKLink] = [:]
    var nextLinkId: UInt64 = 1
    var invitations: [String: Invitation] = [:]
    var nextInvitationNumber: UInt64 = 1
    var messageBuckets: [ForwardKey: MessageBucket] = [:]
    /// Mirrors of local users shown on other cluster nodes, by target room and user.
    var remoteMirrors: [ForwardKey: RemoteMirrorRecord] = [:]
    /// Local tracks sent over the media pipe to other nodes.
    var pipeSinks: [PipeSinkKey: PipeSink] = [:]
    /// Tracks arriving over media pipes from other nodes, and how many mirrors here show each.
    var remoteSources: [RemoteSourceKey: UInt32] = [:]
    var remoteSourceUsers: [UInt32: Int] = [:]
    /// The streams each mirror or replica from another node was last sent with, before this
    /// room's link mute mask hides any (the mask can change here without a word from that node).
    var remoteMirrorStreams: [ForwardKey: RemoteMirrorStreams] = [:]
    /// Rooms this node serves as an edge: the node that holds each (its origin).
    var edgeOrigins: [String: EdgeOrigin] = [:]
    /// The other nodes each room's visible members are replicated to, by room and node: an
    /// origin's edges, an edge's origin (only while the pipe to that node is connected).
    var replicaTargets: [String: [String: RemoteTarget]] = [:]
    /// The local tracks each member replicated to another node exports over the pipe.
    var edgeReplicas: [EdgeReplicaKey: Set<UInt32>] = [:]
    /// The media pipe to each node that is connected, by node.
    var pipeTransports: [String: Int] = [:]
    /// Sinks bound to tracks arriving over media pipes, and how many are bound to each track:
    /// a pipe track is wanted from its node while one is.
    var pipeBindings: [UInt32: UInt32] = [:]
    var pipeDemand: [UInt32: Int] = [:]
    /// Pipe tracks a sink switched away from, each still wanted (one count of its demand) for
    /// ``pipeSwitchLingerMilliseconds`` from the first tick after the switch: the media plane
    /// moves the sink at the new layer's keyframe, and the old layer must keep crossing until
    /// then or the subscriber's video stops meanwhile.
    var lingeringPipeDemand: [(source: UInt32, since: EngineTime?)] = []
    static let pipeSwitchLingerMilliseconds: Int64 = 1500
    /// The header-extension id naming simulcast layers in each WebRTC publisher transport's packets.
    var ridExtensions: [Int: UInt8] = [:]
    /// The SDP side of each receiving WebRTC transport, by transport id.
    var negotiations: [Int: SubscriberNegotiation] = [:]
    /// SRTP transports that stamp transport-wide numbers: their video sinks repair (and are
    /// probed) on retransmission streams of their own.
    var retransmissionStreamTransports: Set<Int> = []
    /// The connection each open transport belongs to.
    var transportOwners: [Int: SessionID] = [:]

    /// - Parameter ssrcSeed: seeds the output-SSRC generator (tests pass a fixed seed).
    public init(limits: RoomLimits = RoomLimits(), ssrcSeed: UInt64) {
        self.limits = limits
        self.ssrcs = SSRCGenerator(seed: ssrcSeed)
    }

    mutating func allocateTrackId() -> UInt32 {
        defer {
            nextTrackId &+= 1
            if nextTrackId == 0 { nextTrackId = 1 }
        }
        return nextTrackId
    }

    /// The ids of the rooms that exist, sorted.
    public var roomIds: [String] { rooms.keys.sorted() }

    /// The number of members of a room (visible or not); nil if it does not exist.
    public func memberCount(roomId: String) -> Int? { rooms[roomId]?.members.count }

    /// Whether a session has joined a room.
    public func isJoined(session: SessionID, roomId: String) -> Bool {
        sessions[session]?.rooms.contains(roomId) ?? false
    }

    /// The rooms a session is in, sorted.
    public func rooms(of session: SessionID) -> [String] { (sessions[session]?.rooms).map { $0.sorted() } ?? [] }

    /// The user id a session uses in a room.
    public func userId(of session: SessionID, roomId: String) -> String? {
        rooms[roomId]?.members.values.first { $0.session == session && !$0.isMirror }?.userId
    }

    /// The role a session has in a room; nil when it is not in it.
    public func role(of session: SessionID, roomId: String) -> UserRole? {
        rooms[roomId]?.members.values.first { $0.session == session && !$0.isMirror }?.role
    }

    /// Finds the member of `session` in `roomId`, or the not-in-room error.
    func member(_ session: SessionID, in roomId: String) -> Result<Member, RelayError> {
        guard let room = rooms[roomId], let member = room.members.values.first(where: { $0.session == session && !$0.isMirror }) else {
            return .failure(RelayError(.notInRoom, "not joined to room '\(roomId)'"))
        }
        return .success(member)
    }

    func owns(_ session: SessionID, transport: Int) -> Bool {
        sessions[session]?.transports.contains(transport) ?? false
    }

    /// Sessions of the other members of a room, in joining order.
    func others(in roomId: String, except userId: String) -> [SessionID] {
        guard let room = rooms[roomId] else { return [] }
        return room.orderedMembers.filter { $0.userId != userId && !$0.isMirror }.map(\.session)
    }

    /// Sends `event` to every other member of the room, and to the other nodes serving the room
    /// what it says about a member (``replicate(_:in:into:)``).
    mutating func broadcast(_ event: ServerEvent, in roomId: String, except userId: String, into actions: inout [EngineAction]) {
        for session in others(in: roomId, except: userId) {
            actions.append(.event(session, event))
        }
        if replicaTargets[roomId] != nil { replicate(event, in: roomId, into: &actions) }
    }
}
