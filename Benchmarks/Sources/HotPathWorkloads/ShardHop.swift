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
        source.pipe(to: remote)
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
