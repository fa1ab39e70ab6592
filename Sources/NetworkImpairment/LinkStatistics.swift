/// What one direction of an impaired link did so far.
public struct LinkStatistics: Sendable, Hashable, Codable {
    public var packetsIn = 0
    public var bytesIn = 0
    /// Datagrams (and bytes) that passed the bottleneck; they are delivered after their delay.
    public var packetsDelivered = 0
    public var bytesDelivered = 0
    public var lostAtRandom = 0
    public var lostInBurst = 0
    public var droppedQueueFull = 0
    /// The longest and the summed wait of a datagram in the queue until it left the bottleneck.
    public var maximumQueueDelayUs: Int64 = 0
    public var totalQueueDelayUs: Int64 = 0

    public init() {}

    /// Summed over flows; the longest wait is the longest of any.
    public static func + (left: LinkStatistics, right: LinkStatistics) -> LinkStatistics {
        var sum = left
        sum.packetsIn += right.packetsIn
        sum.bytesIn += right.bytesIn
        sum.packetsDelivered += right.packetsDelivered
        sum.bytesDelivered += right.bytesDelivered
        sum.lostAtRandom += right.lostAtRandom
        sum.lostInBurst += right.lostInBurst
        sum.droppedQueueFull += right.droppedQueueFull
        sum.maximumQueueDelayUs = max(left.maximumQueueDelayUs, right.maximumQueueDelayUs)
        sum.totalQueueDelayUs += right.totalQueueDelayUs
        return sum
    }
}
