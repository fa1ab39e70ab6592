/// Groups acknowledged packets into send bursts and yields, for each pair of consecutive groups,
/// how far apart they were sent and how far apart they arrived (draft-ietf-rmcat-gcc-02,
/// section 5.1, as libwebrtc's InterArrival does it).
///
/// A group is the packets sent within ``groupSpanUs`` of its first one; a packet that arrives
/// within ``burstSpanUs`` of the group's last arrival, and sooner after it than it was sent,
/// joins the group too (a burst that queued behind something else, not a sign of congestion).
public struct InterArrivalGrouping: Sendable {
    /// One group's send and arrival bounds.
    struct Group: Sendable {
        var firstSendUs: Int64
        var lastSendUs: Int64
        var firstArrivalUs: Int64
        var lastArrivalUs: Int64
    }

    /// The deltas between two consecutive groups, in microseconds.
    public struct Delta: Sendable, Equatable {
        public var sendDeltaUs: Int64
        public var arrivalDeltaUs: Int64
        /// When the later group's last packet arrived (receiver's clock).
        public var arrivalUs: Int64

        public init(sendDeltaUs: Int64, arrivalDeltaUs: Int64, arrivalUs: Int64) {
            self.sendDeltaUs = sendDeltaUs
            self.arrivalDeltaUs = arrivalDeltaUs
            self.arrivalUs = arrivalUs
        }
    }

    public static let groupSpanUs: Int64 = 5_000
    public static let burstSpanUs: Int64 = 5_000
    /// A gap in arrivals longer than this starts over (a stall, a clock jump).
    public static let resetGapUs: Int64 = 3_000_000

    var current: Group?
    var previous: Group?

    public init() {}

    /// Adds one acknowledged packet; returns the deltas when it closed a group and an earlier
    /// one exists to compare with.
    public mutating func add(sendUs: Int64, arrivalUs: Int64) -> Delta? {
        guard var group = current else {
            current = Group(firstSendUs: sendUs, lastSendUs: sendUs, firstArrivalUs: arrivalUs, lastArrivalUs: arrivalUs)
            return nil
        }
        // Reordered behind its group's start: it says nothing about the queue.
        guard sendUs >= group.firstSendUs else { return nil }
        if belongs(sendUs: sendUs, arrivalUs: arrivalUs, to: group) {
            group.lastSendUs = max(group.lastSendUs, sendUs)
            group.lastArrivalUs = max(group.lastArrivalUs, arrivalUs)
            current = group
            return nil
        }
        var delta: Delta?
        if let earlier = previous {
            let arrivalDelta = group.lastArrivalUs - earlier.lastArrivalUs
            let sendDelta = group.lastSendUs - earlier.lastSendUs
            if arrivalDelta < 0 || arrivalDelta > Self.resetGapUs {
                previous = nil
                current = Group(firstSendUs: sendUs, lastSendUs: sendUs, firstArrivalUs: arrivalUs, lastArrivalUs: arrivalUs)
                return nil
            }
            delta = Delta(sendDeltaUs: sendDelta, arrivalDeltaUs: arrivalDelta, arrivalUs: group.lastArrivalUs)
        }
        previous = group
        current = Group(firstSendUs: sendUs, lastSendUs: sendUs, firstArrivalUs: arrivalUs, lastArrivalUs: arrivalUs)
        return delta
    }

    func belongs(sendUs: Int64, arrivalUs: Int64, to group: Group) -> Bool {
        if sendUs - group.firstSendUs <= Self.groupSpanUs { return true }
        let arrivalDelta = arrivalUs - group.lastArrivalUs
        let sendDelta = sendUs - group.lastSendUs
        return arrivalDelta < Self.burstSpanUs && arrivalDelta - sendDelta < 0
    }
}
