/// A snapshot the data-plane thread publishes about once a second for stats, metrics and the
/// keep-alive check. Building it allocates, which is why it happens once a second and never per packet.
public struct MediaPlaneReport: Sendable {
    /// Unix milliseconds when the snapshot was taken.
    public var generatedAtMs: Int64 = 0
    public var counters = DataPlaneCounters()
    public var sources: [UInt32: SourceReport] = [:]
    public var sinks: [UInt32: SinkReport] = [:]
    public var transports: [Int: TransportReport] = [:]
    public init() {}
}
