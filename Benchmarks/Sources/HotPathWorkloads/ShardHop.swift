import RTPWire

@testable import MediaPlane

/// One publisher's packets crossing from the shard that reads them to another shard's remote
/// source, or staying on the same shard: with no subscribers on either, the difference between
/// the two is what the hop itself costs (copy into the ring, the other core's pop and delivery).
public final class ShardHop: @unchecked Sendable {
    // Used by one benchmark at a time, on one thread playing both shards.
    let source: CoreFanOut
    let remote: MediaCore
    let crosses: Bool

    public init(crosses: Bool) {
        source = CoreFanOut(subscribers: 0, profile: nil)
        let (_, events) = AsyncStream.makeStream(of: MediaPlaneEvent.self)
        remote = MediaCore(
            configuration: MediaPlaneConfiguration(), reports: ReportStore(), output: DiscardingOutput(), hasWebRTCSocket: false, events: events, randomSeed: 2)
        self.crosses = crosses
        guard crosses else { return }
        let out = PacketRing(slotCount: 1024, slotCapacity: MediaCore.sendSlotCapacity)
        let back = PacketRing(slotCount: 1024, slotCapacity: MediaCore.sendSlotCapacity)
        source.core.addLink(PipeLink(peer: 1, outbound: out, inbound: back))
        remote.addLink(PipeLink(peer: 0, outbound: back, inbound: out))
        remote.apply(.addRemoteSource(MediaSourceSpec(id: 1, transportId: -1, ssrc: CoreFanOut.ssrc, isVideo: true, codec: "VP8", clockRate: 90_000), peer: 0))
        source.core.apply(.addPipeOutlet(source: 1, peer: 1))
    }
}

/// Received packets delivered, and when the pipe is used, taken off it by the other core in
/// batches of 32 as its shell would.
@inline(never)
public func runShardHop(_ state: ShardHop, iterations: Range<Int>) {
    for iteration in iterations {
        state.source.deliver()
        if state.crosses, iteration & 31 == 31 { state.remote.drainLinks() }
    }
    if state.crosses { state.remote.drainLinks() }
}
