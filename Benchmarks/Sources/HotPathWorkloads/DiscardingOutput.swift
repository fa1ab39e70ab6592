@testable import MediaPlane

/// Throws every datagram away: the workloads measure the media core, not the kernel.
public final class DiscardingOutput: DatagramOutput {
    public var datagrams = 0

    public init() {}

    public func sendQueued(on transport: TransportState, count: Int, counters: inout DataPlaneCounters) -> Int {
        datagrams &+= count
        return count
    }

    public func sendFromWebRTCSocket(_ datagram: UnsafeRawBufferPointer, to endpoint: PeerEndpoint) -> Bool { true }

    public func peerFixed(on transport: TransportState) {}
}
