/// A probe: a short burst of packets sent at ``targetBps``, above the estimate, whose arrival
/// rate shows whether the path has that much headroom (libwebrtc's probe clusters).
public struct ProbeCluster: Sendable, Equatable {
    public var id: Int32
    public var targetBps: Double
    /// The burst lasts at least this long and holds at least ``minimumPackets`` packets.
    public var durationUs: Int64
    public var minimumPackets: Int

    public init(id: Int32, targetBps: Double, durationUs: Int64 = 15_000, minimumPackets: Int = 5) {
        self.id = id
        self.targetBps = targetBps
        self.durationUs = durationUs
        self.minimumPackets = minimumPackets
    }

    /// Bytes the burst carries at its target rate (at least `minimumPackets` of `packetBytes`).
    public func bytes(packetBytes: Int) -> Int {
        max(Int(targetBps * Double(durationUs) / 8_000_000), minimumPackets * packetBytes)
    }
}
