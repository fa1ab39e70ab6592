/// What each probe cluster showed: the rate its packets were sent at and the rate they arrived
/// at, from the transport-wide feedback that reports them (libwebrtc's probe bitrate estimator).
/// A result is the smaller of the two, and a little under the arrival rate when the path held
/// the burst back (it arrived slower than 90 % of its sending rate).
///
/// A few clusters are tracked at once in fixed slots; a new cluster takes the oldest slot.
public struct ProbeResultMeter: Sendable {
    struct Slot: Sendable {
        var id: Int32 = -1
        var sentCount = 0
        var sentBytes = 0
        var lastSentBytes = 0
        var firstSendUs: Int64 = 0
        var lastSendUs: Int64 = 0
        var reportedCount = 0
        var receivedCount = 0
        var receivedBytes = 0
        var firstReceivedBytes = 0
        var firstArrivalUs: Int64 = .max
        var lastArrivalUs: Int64 = .min
        var finished = false
    }

    /// One cluster's verdict.
    public struct Result: Sendable, Equatable {
        public var clusterId: Int32
        public var bitrateBps: Double
    }

    static let slotCount = 4
    /// Packets a cluster must have arrived before it counts.
    public static let minimumReceived = 4
    /// A cluster whose arrival rate is over this many times its sending rate is measurement noise.
    static let maximumRatio = 2.0

    var slots = InlineArray<4, Slot>(repeating: Slot())
    var nextSlot = 0

    public init() {}

    /// A packet of cluster `id` went out.
    public mutating func recordSent(cluster id: Int32, bytes: Int, sendUs: Int64) {
        var index = slotIndex(of: id)
        if index == nil {
            index = nextSlot
            slots[nextSlot] = Slot(id: id, firstSendUs: sendUs)
            nextSlot = (nextSlot + 1) % Self.slotCount
        }
        guard let index else { return }
        slots[index].sentCount += 1
        slots[index].sentBytes += bytes
        slots[index].lastSentBytes = bytes
        slots[index].lastSendUs = max(slots[index].lastSendUs, sendUs)
    }

    /// Feedback reported a packet of cluster `id`: arrived at `arrivalUs`, or lost (nil).
    public mutating func recordReport(cluster id: Int32, bytes: Int, arrivalUs: Int64?) {
        guard let index = slotIndex(of: id), !slots[index].finished else { return }
        slots[index].reportedCount += 1
        guard let arrivalUs else { return }
        if arrivalUs < slots[index].firstArrivalUs {
            slots[index].firstArrivalUs = arrivalUs
            slots[index].firstReceivedBytes = bytes
        }
        slots[index].lastArrivalUs = max(slots[index].lastArrivalUs, arrivalUs)
        slots[index].receivedCount += 1
        slots[index].receivedBytes += bytes
    }

    /// The result of a cluster whose packets have now been (mostly) reported, once.
    public mutating func takeResult() -> Result? {
        for index in 0..<Self.slotCount {
            let slot = slots[index]
            guard slot.id >= 0, !slot.finished, slot.sentCount > 0, slot.reportedCount * 10 >= slot.sentCount * 8 else { continue }
            slots[index].finished = true
            guard slot.receivedCount >= Self.minimumReceived else { continue }
            let sendSpan = slot.lastSendUs - slot.firstSendUs
            let arrivalSpan = slot.lastArrivalUs - slot.firstArrivalUs
            guard sendSpan > 0, arrivalSpan > 0 else { continue }
            let sendBps = Double(slot.sentBytes - slot.lastSentBytes) * 8_000_000 / Double(sendSpan)
            let receiveBps = Double(slot.receivedBytes - slot.firstReceivedBytes) * 8_000_000 / Double(arrivalSpan)
            guard receiveBps <= Self.maximumRatio * sendBps else { continue }
            let bitrate = receiveBps < 0.9 * sendBps ? 0.95 * receiveBps : min(sendBps, receiveBps)
            return Result(clusterId: slot.id, bitrateBps: bitrate)
        }
        return nil
    }

    func slotIndex(of id: Int32) -> Int? {
        for index in 0..<Self.slotCount where slots[index].id == id { return index }
        return nil
    }
}
