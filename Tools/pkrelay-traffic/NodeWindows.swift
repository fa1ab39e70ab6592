import Synchronization
import TrafficCore

/// pk-cluster's per-node figures: each node's share of the scenario, and its relay packet
/// counters at the start and end of the measured window.
final class NodeWindows: Sendable {
    private struct State {
        var starts: [Int: (UInt64, UInt64)] = [:]
        var ends: [Int: (UInt64, UInt64)] = [:]
        var shares: [(url: String, rooms: Int, clients: Int)] = []
    }

    private let state = Mutex(State())

    var shares: [(url: String, rooms: Int, clients: Int)] {
        get { state.withLock { $0.shares } }
        set { state.withLock { $0.shares = newValue } }
    }

    func record(_ node: Int, started: Bool, counters: (packetsIn: UInt64, packetsOut: UInt64)?) {
        state.withLock { state in
            let value = counters.map { ($0.packetsIn, $0.packetsOut) }
            if started { state.starts[node] = value } else { state.ends[node] = value }
        }
    }

    /// The report's nodes; packet rates only where both ends of the window were read.
    func loads(admins: [String], seconds: Double) -> [NodeLoad] {
        state.withLock { state in
            state.shares.enumerated().map { position, share in
                var load = NodeLoad(relayURL: share.url, rooms: share.rooms, clients: share.clients)
                if position < admins.count {
                    load.adminURL = admins[position]
                    if let start = state.starts[position], let end = state.ends[position], seconds > 0 {
                        load.packetsPerSecondIn = Double(end.0 &- start.0) / seconds
                        load.packetsPerSecondOut = Double(end.1 &- start.1) / seconds
                    }
                }
                return load
            }
        }
    }
}
