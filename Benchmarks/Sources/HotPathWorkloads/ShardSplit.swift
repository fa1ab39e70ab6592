import SecureTransport

@testable import MediaPlane

/// One publisher and a fixed number of subscribers, all on the publisher's shard or split
/// between it and a second shard reached through the pipe: the same egress packets either way,
/// so the two differ by exactly what spreading a room's audience over shards costs.
public final class ShardSplit: @unchecked Sendable {
    // Used by one measurement at a time, on one thread playing both shards.
    public let source: CoreFanOut
    public let remote: MediaCore
    public let remoteOutput = DiscardingOutput()
    public let shards: Int

    /// `subscribers` in all; with 2 `shards`, the second half of them on the other shard. The
    /// publisher sends plain RTP, or SRTP under `publisherProfile`.
    public init(subscribers: Int, shards: Int, profile: SRTPProfile?, publisherProfile: SRTPProfile? = nil) {
        precondition(shards == 1 || shards == 2, "one shard, or two")
        let remoteCount = shards == 2 ? subscribers / 2 : 0
        source = CoreFanOut(subscribers: subscribers - remoteCount, profile: profile, publisherProfile: publisherProfile)
        let (_, events) = AsyncStream.makeStream(of: MediaPlaneEvent.self)
        remote = MediaCore(
            configuration: MediaPlaneConfiguration(), reports: ReportStore(), output: remoteOutput, hasWebRTCSocket: false, events: events, randomSeed: 3)
        remote.advanceClock(monotonicMs: 1000, unixMs: 1_700_000_000_000)
        self.shards = shards
        guard shards == 2 else { return }
        source.pipe(to: remote)
        CoreFanOut.addSubscribers(to: remote, count: remoteCount, firstTransport: 1000, source: 1, profile: profile)
        // Past the keyframe gate on the far side too: one keyframe through the pipe.
        source.template[13] = 0x00
        source.deliver()
        source.template[13] = 0x01
        source.core.flushAll()
        remote.drainLinks()
        remote.flushAll()
    }

    /// Datagrams sent by both shards so far.
    public var egressDatagrams: Int { source.output.datagrams + remoteOutput.datagrams }
}

/// Received packets through the split, each shard flushing every 32 as its shell would (and the
/// second shard taking the pipe's packets off in batches of 32).
@inline(never)
public func runShardSplit(_ state: ShardSplit, iterations: Range<Int>) {
    for iteration in iterations {
        state.source.deliver()
        if iteration & 31 == 31 {
            state.source.core.flushAll()
            if state.shards == 2 {
                state.remote.drainLinks()
                state.remote.flushAll()
            }
        }
    }
    state.source.core.flushAll()
    if state.shards == 2 {
        state.remote.drainLinks()
        state.remote.flushAll()
    }
}
