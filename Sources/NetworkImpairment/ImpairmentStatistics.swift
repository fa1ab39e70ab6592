/// What the impairment relay did in each direction, summed over its flows.
public struct ImpairmentStatistics: Sendable, Hashable {
    /// Clients seen so far (each has its own flow, with its own links).
    public var flows = 0
    public var uplink = LinkStatistics()
    public var downlink = LinkStatistics()
    /// Bytes waiting in the uplink and downlink queues now, over all flows.
    public var uplinkQueuedBytes = 0
    public var downlinkQueuedBytes = 0

    public init() {}

    /// One JSON object, for the command line and for tests in other languages.
    public var json: String {
        func link(_ statistics: LinkStatistics, queued: Int) -> String {
            "{\"packetsIn\":\(statistics.packetsIn),\"bytesIn\":\(statistics.bytesIn),\"packetsDelivered\":\(statistics.packetsDelivered),"
                + "\"bytesDelivered\":\(statistics.bytesDelivered),\"lostAtRandom\":\(statistics.lostAtRandom),\"lostInBurst\":\(statistics.lostInBurst),"
                + "\"droppedQueueFull\":\(statistics.droppedQueueFull),\"maximumQueueDelayUs\":\(statistics.maximumQueueDelayUs),"
                + "\"totalQueueDelayUs\":\(statistics.totalQueueDelayUs),\"queuedBytes\":\(queued)}"
        }
        return "{\"flows\":\(flows),\"uplink\":\(link(uplink, queued: uplinkQueuedBytes)),\"downlink\":\(link(downlink, queued: downlinkQueuedBytes))}"
    }
}
