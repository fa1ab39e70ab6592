import Cluster
import Synchronization

@testable import PKRelayServer

/// Node-to-node connections in one process: a dial connects two ``ClusterPeers`` directly
/// through a pair of in-memory channels, one per direction. A test can hold a direction (what
/// one node writes waits, as to a peer that stopped reading) and cut every connection between
/// two nodes (as a network that drops them).
final class InProcessPeerNetwork: PeerDialer {
    struct Unreachable: Error {}

    /// One direction of a connection: what one side writes, the other reads.
    final class Channel: Sendable {
        let messages: AsyncStream<String>
        private let sink: AsyncStream<String>.Continuation
        private let flow: TestGate

        init(flow: TestGate) {
            (messages, sink) = AsyncStream.makeStream()
            self.flow = flow
        }

        /// Waits while the direction is held; throws once the writer is cancelled (its
        /// connection closed) or the channel is finished, as a socket's write would.
        func write(_ text: String) async throws {
            await flow.pass()
            try Task.checkCancellation()
            if case .terminated = sink.yield(text) { throw Unreachable() }
        }

        func finish() { sink.finish() }
    }

    private struct State {
        var nodes: [String: ClusterPeers] = [:]
        var open: [(from: String, to: String, channels: [Channel])] = []
        var unreachable: Set<String> = []
    }

    private let state = Mutex(State())
    private let flows = Mutex<[String: TestGate]>([:])

    func add(_ peers: ClusterPeers, as node: String) { state.withLock { $0.nodes[node] = peers } }

    /// The gate of what `from` writes to `to`: closed, `to` reads nothing more from `from`.
    func flow(from: String, to: String) -> TestGate {
        flows.withLock { flows in
            if let gate = flows["\(from)>\(to)"] { return gate }
            let gate = TestGate()
            flows["\(from)>\(to)"] = gate
            return gate
        }
    }

    /// Dials to `node` fail (true) or connect again (false).
    func setUnreachable(_ node: String, _ unreachable: Bool) {
        state.withLock { state in
            if unreachable { state.unreachable.insert(node) } else { state.unreachable.remove(node) }
        }
    }

    /// Ends every connection between `first` and `second`, as a network that drops them.
    func cut(_ first: String, _ second: String) {
        let channels = state.withLock { state -> [Channel] in
            let cut = state.open.filter { Set([$0.from, $0.to]) == Set([first, second]) }
            state.open.removeAll { Set([$0.from, $0.to]) == Set([first, second]) }
            return cut.flatMap(\.channels)
        }
        for channel in channels { channel.finish() }
    }

    func dial(_ node: ClusterNode, into peers: ClusterPeers) async throws {
        let (target, from) = try state.withLock { state -> (ClusterPeers, String) in
            guard let target = state.nodes[node.id], !state.unreachable.contains(node.id),
                let from = state.nodes.first(where: { $0.value === peers })?.key
            else { throw Unreachable() }
            return (target, from)
        }
        let outward = Channel(flow: flow(from: from, to: node.id))
        let inward = Channel(flow: flow(from: node.id, to: from))
        state.withLock { $0.open.append((from, node.id, [outward, inward])) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await target.serve(messages: outward.messages, write: { try await inward.write($0) }, dialed: nil)
                outward.finish()
                inward.finish()
            }
            await peers.serve(messages: inward.messages, write: { try await outward.write($0) }, dialed: node)
            outward.finish()
            inward.finish()
        }
    }
}
