import Foundation
import Synchronization

/// The outbound queues of the node-to-node connections that are up, by peer node id. The relay
/// core sends through it synchronously, so messages leave in the order its actions produced them.
final class PeerOutbox: Sendable {
    private struct Entry {
        var generation: UInt64
        var queue: AsyncStream<String>.Continuation
        /// Finished (with the reason) to close the connection at once.
        var cut: AsyncStream<String>.Continuation
        var ready: Bool
    }

    /// Messages queued per connection before it is closed as a peer that stopped reading.
    let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])
    /// Ready connections that ended, since start.
    private let losses = Mutex<UInt64>(0)
    private let overflows = Mutex<UInt64>(0)
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    init(capacity: Int = 16384) {
        self.capacity = capacity
    }

    /// Registers a connection to `node`; a connection it replaces is closed once what is queued
    /// for it is written (its queue finished).
    func open(node: String, generation: UInt64, queue: AsyncStream<String>.Continuation, cut: AsyncStream<String>.Continuation) {
        let replaced = entries.withLock { entries in
            defer { entries[node] = Entry(generation: generation, queue: queue, cut: cut, ready: false) }
            return entries[node]
        }
        replaced?.queue.finish()
    }

    /// The connection has exchanged hellos: messages other than hello and ping may go.
    func markReady(node: String, generation: UInt64) {
        entries.withLock { entries in
            if entries[node]?.generation == generation { entries[node]!.ready = true }
        }
    }

    /// Forgets the connection `generation` to `node` (a newer one stays); `wasReady` counts a loss.
    func close(node: String, generation: UInt64, wasReady: Bool) {
        entries.withLock { entries in
            if entries[node]?.generation == generation { entries[node] = nil }
        }
        if wasReady { losses.withLock { $0 += 1 } }
    }

    /// The peers with a ready connection, sorted, and the ready connections lost since start.
    var connectedPeers: (peers: [String], losses: UInt64) {
        (entries.withLock { $0.filter(\.value.ready).keys.sorted() }, losses.withLock { $0 })
    }

    /// Whether a ready connection to `node` is up.
    func isReady(_ node: String) -> Bool { entries.withLock { $0[node]?.ready ?? false } }

    /// Queues `message` for `node`; returns the generation of the connection it went on, or nil
    /// when no ready connection is up.
    @discardableResult
    func send(_ message: PeerMessage, to node: String) -> UInt64? {
        guard let text = encode(message) else { return nil }
        let ready = entries.withLock { entries -> Entry? in
            guard let entry = entries[node], entry.ready else { return nil }
            return entry
        }
        guard let ready else { return nil }
        if case .enqueued = ready.queue.yield(text) { return ready.generation }
        // A peer that cannot take what this node tells it would go on with rooms that differ
        // from this node's: the connection closes at once instead, and the two nodes
        // resynchronise when they reconnect, as after any lost connection (as a client that
        // reads too slowly is cut).
        entries.withLock { entries in
            if entries[node]?.generation == ready.generation { entries[node]!.ready = false }
        }
        ready.cut.yield("its queue of \(capacity) messages is full: the peer stopped reading")
        ready.cut.finish()
        ready.queue.finish()
        overflows.withLock { $0 += 1 }
        return nil
    }

    /// Connections closed because their queue was full, since start.
    var overflowCount: UInt64 { overflows.withLock { $0 } }

    func encode(_ message: PeerMessage) -> String? {
        guard let data = try? encoder.encode(message) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
