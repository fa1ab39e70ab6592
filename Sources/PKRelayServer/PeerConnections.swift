import Cluster

/// The decisions about a node's connections to its peers (docs/CLUSTER.md, "The node-to-node
/// connection" and "When the connection fails"), as a value: which peer to dial and when, which
/// connection stays when two nodes dial each other at once, when a silent connection is
/// dropped, when a peer counts as gone, and which waiting requests fail. Events go in with the
/// time (monotonic milliseconds); out come ``PeerAction``s, which ``ClusterPeers`` carries out
/// over WebSocket. No socket and no clock: tests script both.
///
/// - A connection that stays silent (not even a ping) for ``Timings/silenceMs`` is dropped;
///   every connection is pinged every ``Timings/pingMs``.
/// - A request dials its node when no connection is up, and waits at most
///   ``Timings/connectTimeoutMs`` for one to be ready. A dial that fails gives the peer's own
///   connection, if it is on its way, ``Timings/crossedDialGraceMs`` before the waiting requests
///   fail.
/// - Once a connection to a peer was ready, the peer is kept: when the connection is lost it is
///   dialed again at once and then every ``Timings/redialMs`` while this node still forwards
///   into rooms there, until ``Timings/goneAfterMs`` (the lease) has passed since the peer's last
///   word: then it is gone.
/// - When both nodes dial at once, the connection dialed by the node with the smaller id is kept
///   on both sides; a connection that opens while another one with the same peer is open closes.
/// - A request fails only with the connection that carried it, or after
///   ``Timings/requestTimeoutMs`` without an answer.
struct PeerConnections: Sendable {
    /// The times the rules above use, in milliseconds.
    struct Timings: Sendable, Equatable {
        var pingMs: Int64 = 1000
        var silenceMs: Int64 = 3000
        var connectTimeoutMs: Int64 = 5000
        var redialMs: Int64 = 1000
        var requestTimeoutMs: Int64 = 5000
        var crossedDialGraceMs: Int64 = 500
        /// How long a peer may stay unreachable, counted from its last word, before its rooms
        /// count as gone: the cluster's lease.
        var goneAfterMs: Int64
    }

    private enum Phase: Sendable, Equatable {
        /// Open; a dialed connection waits for the peer's hello, an accepted one for the first.
        case opening
        /// The hello each way is through or on its way; the relay core is being told.
        case greeting
        case ready
    }

    private struct Connection: Sendable {
        var node: String?
        var dialed: Bool
        var phase: Phase
        var helloHeard = false
        var lastHeardMs: Int64
        var nextPingMs: Int64
    }

    private enum Dial: Sendable, Equatable {
        case attempt(UInt64, deadlineMs: Int64, startedMs: Int64)
        case pause(untilMs: Int64)
    }

    private struct Peer: Sendable {
        var address: ClusterNode
        /// A connection was ready once: it is dialed again when lost.
        var kept = false
        var dial: Dial?
        /// While no connection is ready: when the peer was last heard (or first needed).
        var downSinceMs: Int64?
        /// A dial failed: the waiting requests fail then, unless a connection is on its way.
        var giveUpAtMs: Int64?
    }

    private struct Waiter: Sendable {
        var node: String
        var deadlineMs: Int64
    }

    private struct Request: Sendable {
        var generation: UInt64
        var deadlineMs: Int64
    }

    let nodeId: String
    let timings: Timings
    private var connections: [UInt64: Connection] = [:]
    private var peers: [String: Peer] = [:]
    private var waiters: [UInt64: Waiter] = [:]
    private var requests: [Int: Request] = [:]
    /// Every node this node has asked something, by id: asked again without the directory.
    private(set) var addresses: [String: ClusterNode] = [:]
    private var nextGeneration: UInt64 = 1
    private var nextAttempt: UInt64 = 1
    private var nextWaiter: UInt64 = 1

    init(nodeId: String, timings: Timings) {
        self.nodeId = nodeId
        self.timings = timings
    }

    // MARK: What the shell asks

    /// The ready connection to `node`, if one is up.
    func readyConnection(to node: String) -> UInt64? {
        connections.first { $0.value.node == node && $0.value.phase == .ready }?.key
    }

    /// Whether connection `generation` is still open.
    func isOpen(_ generation: UInt64) -> Bool { connections[generation] != nil }

    /// The peer of connection `generation` once it is ready (its messages are taken in).
    func peer(of generation: UInt64) -> String? {
        guard let connection = connections[generation], connection.phase == .ready else { return nil }
        return connection.node
    }

    /// The earliest time at which ``advance(to:)`` has something to do.
    var nextDeadlineMs: Int64? {
        var deadlines: [Int64] = []
        for connection in connections.values {
            deadlines.append(connection.lastHeardMs + timings.silenceMs + 1)
            deadlines.append(connection.nextPingMs)
        }
        for peer in peers.values {
            switch peer.dial {
            case .attempt(_, let deadline, _)?: deadlines.append(deadline)
            case .pause(let until)?: deadlines.append(until)
            case nil: break
            }
            if let downSince = peer.downSinceMs, peer.kept { deadlines.append(downSince + timings.goneAfterMs) }
            if let giveUp = peer.giveUpAtMs { deadlines.append(giveUp) }
        }
        deadlines += waiters.values.map(\.deadlineMs)
        deadlines += requests.values.map(\.deadlineMs)
        return deadlines.min()
    }

    // MARK: Requests

    /// A request for `node` waits for a ready connection: dials it when no connection is on its
    /// way. Returns the waiter, resolved by a later ``PeerAction/resolveWaiter(_:ready:)``.
    mutating func need(_ node: ClusterNode, at now: Int64) -> (waiter: UInt64, actions: [PeerAction]) {
        addresses[node.id] = node
        let waiter = nextWaiter
        nextWaiter += 1
        if readyConnection(to: node.id) != nil { return (waiter, [.resolveWaiter(waiter, ready: true)]) }
        waiters[waiter] = Waiter(node: node.id, deadlineMs: now + timings.connectTimeoutMs)
        var peer = peers[node.id] ?? Peer(address: node, downSinceMs: now)
        peer.address = node
        peer.giveUpAtMs = nil
        peers[node.id] = peer
        var actions: [PeerAction] = []
        if case .attempt? = peer.dial {
            // Already dialing.
        } else if !hasConnectionOnItsWay(to: node.id) {
            actions.append(startDial(node.id, at: now, redial: false))
        }
        return (waiter, actions)
    }

    /// A request went out on connection `generation`.
    mutating func sent(request id: Int, on generation: UInt64, at now: Int64) {
        requests[id] = Request(generation: generation, deadlineMs: now + timings.requestTimeoutMs)
    }

    /// Request `id` was answered.
    mutating func answered(request id: Int) { requests[id] = nil }

    // MARK: Dialing

    /// A dial attempt ended without a connection.
    mutating func dialFailed(_ attempt: UInt64, at now: Int64) -> [PeerAction] {
        guard let (node, peer) = peers.first(where: { $0.value.dial.map { Self.isAttempt($0, attempt) } ?? false }) else { return [] }
        return attemptEnded(node, peer, at: now)
    }

    /// `node` is no longer wanted (this node forwards into no room there): it is not dialed again.
    mutating func unwanted(_ node: String, at now: Int64) -> [PeerAction] {
        guard let peer = peers[node], peer.kept, readyConnection(to: node) == nil else { return [] }
        peers[node] = nil
        var actions: [PeerAction] = []
        if case .attempt(let attempt, _, _)? = peer.dial { actions.append(.cancelDial(attempt: attempt)) }
        return actions + failWaiters(for: node)
    }

    // MARK: Connections

    /// A WebSocket connection opened: dialed by this node to `dialedTo`, or accepted (nil).
    /// Returns its generation and what to do.
    mutating func opened(dialedTo node: String?, at now: Int64) -> (generation: UInt64, actions: [PeerAction]) {
        let generation = nextGeneration
        nextGeneration += 1
        guard let node else {
            connections[generation] = Connection(node: nil, dialed: false, phase: .opening, lastHeardMs: now, nextPingMs: now + timings.pingMs)
            return (generation, [])
        }
        if case .attempt? = peers[node]?.dial { peers[node]?.dial = nil }
        if connections.values.contains(where: { $0.node == node }) {
            // The peer's own dial came up while this one was on its way: that one stays, and
            // this one closes without a word.
            return (generation, [.close(generation: generation, reason: "a connection with \(node) is already up")])
        }
        connections[generation] = Connection(node: node, dialed: true, phase: .greeting, lastHeardMs: now, nextPingMs: now + timings.pingMs)
        return (generation, [.greet(generation: generation, node: node)])
    }

    /// Something arrived on connection `generation`.
    mutating func heard(_ generation: UInt64, at now: Int64) {
        connections[generation]?.lastHeardMs = now
    }

    /// The peer's hello arrived on connection `generation`.
    mutating func helloReceived(_ hello: PeerHello, on generation: UInt64, at now: Int64) -> [PeerAction] {
        guard let connection = connections[generation] else { return [] }
        guard hello.version == PeerMessage.version else {
            return close(generation, "the peer speaks version \(hello.version) of the node-to-node protocol, this node \(PeerMessage.version)", at: now)
        }
        let peer = hello.node
        guard peer != nodeId, !connection.helloHeard else { return close(generation, "a hello from this node itself, or a second hello", at: now) }
        if let expected = connection.node, expected != peer { return close(generation, "the peer is \(peer), not \(expected)", at: now) }
        connections[generation]!.helloHeard = true
        if connection.dialed { return [.establish(generation: generation, node: peer, hello: hello)] }
        if nodeId < peer, connections.contains(where: { $0.key != generation && $0.value.node == peer && $0.value.dialed }) {
            // Both nodes dialed at once: the connection the node with the smaller id dialed is
            // the one kept, on both sides (the peer, the larger, drops its own when it accepts ours).
            return close(generation, "the connection dialed from here to \(peer) is the one kept", at: now)
        }
        connections[generation]!.node = peer
        connections[generation]!.phase = .greeting
        return [.greet(generation: generation, node: peer), .establish(generation: generation, node: peer, hello: hello)]
    }

    /// The relay core took connection `generation` up: requests to its peer may go.
    mutating func established(_ generation: UInt64, at now: Int64) -> [PeerAction] {
        guard let node = connections[generation]?.node else { return [] }
        connections[generation]!.phase = .ready
        var actions: [PeerAction] = []
        if var peer = peers[node] {
            if case .attempt(let attempt, _, _)? = peer.dial { actions.append(.cancelDial(attempt: attempt)) }
            peer.dial = nil
            peer.kept = true
            peer.downSinceMs = nil
            peer.giveUpAtMs = nil
            peers[node] = peer
        }
        for (id, waiter) in waiters.sorted(by: { $0.key < $1.key }) where waiter.node == node {
            waiters[id] = nil
            actions.append(.resolveWaiter(id, ready: true))
        }
        return actions
    }

    /// Setting connection `generation` up failed (no media port for the pipe, or a pipe offer
    /// that cannot be used): it closes.
    mutating func failed(_ generation: UInt64, why: String, at now: Int64) -> [PeerAction] {
        close(generation, why, at: now)
    }

    /// The connection ended (the peer closed it, or it broke).
    mutating func closed(_ generation: UInt64, at now: Int64) -> [PeerAction] {
        guard connections[generation] != nil else { return [] }
        return forget(generation, at: now)
    }

    /// Closes every connection and keeps no peer (shutdown).
    mutating func closeAll(at now: Int64) -> [PeerAction] {
        var actions: [PeerAction] = []
        for (node, peer) in peers.sorted(by: { $0.key < $1.key }) {
            if case .attempt(let attempt, _, _)? = peer.dial { actions.append(.cancelDial(attempt: attempt)) }
            actions += failWaiters(for: node)
        }
        peers = [:]
        for generation in connections.keys.sorted() { actions += close(generation, "shutting down", at: now) }
        return actions
    }

    // MARK: Time

    /// The time is `now`: pings, silent connections, dial attempts and pauses, gone peers,
    /// waiters and requests that ran out.
    mutating func advance(to now: Int64) -> [PeerAction] {
        var actions: [PeerAction] = []
        for generation in connections.keys.sorted() {
            guard let connection = connections[generation] else { continue }
            if now - connection.lastHeardMs > timings.silenceMs {
                actions += close(generation, "silent for \(timings.silenceMs) ms", at: now)
            } else if now >= connection.nextPingMs {
                connections[generation]!.nextPingMs = now + timings.pingMs
                actions.append(.ping(generation: generation))
            }
        }
        for node in peers.keys.sorted() {
            guard var peer = peers[node], readyConnection(to: node) == nil else { continue }
            if peer.kept, let downSince = peer.downSinceMs, now >= downSince + timings.goneAfterMs, !hasConnectionOnItsWay(to: node) {
                peers[node] = nil
                if case .attempt(let attempt, _, _)? = peer.dial { actions.append(.cancelDial(attempt: attempt)) }
                actions.append(.gone(node: node))
                actions += failWaiters(for: node)
                continue
            }
            if let giveUp = peer.giveUpAtMs, now >= giveUp {
                peer.giveUpAtMs = nil
                peers[node] = peer
                // The peer's own connection is exchanging hellos, or an accepted one has not said
                // who it is yet (slow under load): it resolves the waiters when ready, or their
                // own deadlines do.
                if !hasConnectionOnItsWay(to: node) && !connections.values.contains(where: { $0.node == nil }) {
                    actions += failWaiters(for: node)
                    if !peer.kept {
                        peers[node] = nil
                        continue
                    }
                }
            }
            switch peer.dial {
            case .attempt(let attempt, let deadline, _)? where now >= deadline:
                // A peer that accepts the connection but never answers (stopped) must not hold
                // the attempt: it is abandoned.
                actions.append(.cancelDial(attempt: attempt))
                actions += attemptEnded(node, peer, at: now)
            case .pause(let until)? where now >= until:
                peers[node]!.dial = nil
                if !hasConnectionOnItsWay(to: node) { actions.append(startDial(node, at: now, redial: true)) }
            default:
                break
            }
        }
        for (id, waiter) in waiters.sorted(by: { $0.key < $1.key }) where now >= waiter.deadlineMs {
            waiters[id] = nil
            actions.append(.resolveWaiter(id, ready: false))
        }
        for (id, request) in requests.sorted(by: { $0.key < $1.key }) where now >= request.deadlineMs {
            requests[id] = nil
            actions.append(.failRequest(id))
        }
        return actions
    }

    // MARK: Private

    private static func isAttempt(_ dial: Dial, _ attempt: UInt64) -> Bool {
        if case .attempt(attempt, _, _) = dial { return true }
        return false
    }

    /// Whether a connection with `node` is open but not ready yet.
    private func hasConnectionOnItsWay(to node: String) -> Bool {
        connections.values.contains { $0.node == node && $0.phase != .ready }
    }

    private mutating func startDial(_ node: String, at now: Int64, redial: Bool) -> PeerAction {
        let attempt = nextAttempt
        nextAttempt += 1
        var deadline = now + timings.connectTimeoutMs
        // A peer due to count as gone is not waited for past that moment.
        if peers[node]!.kept, let downSince = peers[node]!.downSinceMs { deadline = min(deadline, downSince + timings.goneAfterMs) }
        peers[node]!.dial = .attempt(attempt, deadlineMs: deadline, startedMs: now)
        let address = peers[node]!.address
        return redial ? .redial(address, attempt: attempt) : .dial(address, attempt: attempt)
    }

    /// A dial attempt to `node` ended without a connection: a kept peer is dialed again a
    /// redial interval after the attempt began; the requests waiting for any other peer fail
    /// after the crossed-dial grace.
    private mutating func attemptEnded(_ node: String, _ peer: Peer, at now: Int64) -> [PeerAction] {
        var peer = peer
        let started: Int64
        if case .attempt(_, _, let startedMs)? = peer.dial { started = startedMs } else { started = now }
        peer.dial = nil
        if peer.kept {
            var until = started + timings.redialMs
            if let downSince = peer.downSinceMs { until = min(until, downSince + timings.goneAfterMs) }
            peer.dial = .pause(untilMs: max(until, now))
        }
        if waiters.values.contains(where: { $0.node == node }) { peer.giveUpAtMs = now + timings.crossedDialGraceMs }
        if !peer.kept, peer.giveUpAtMs == nil {
            peers[node] = nil
            return []
        }
        peers[node] = peer
        return []
    }

    private mutating func failWaiters(for node: String) -> [PeerAction] {
        var actions: [PeerAction] = []
        for (id, waiter) in waiters.sorted(by: { $0.key < $1.key }) where waiter.node == node {
            waiters[id] = nil
            actions.append(.resolveWaiter(id, ready: false))
        }
        return actions
    }

    /// This node closes connection `generation`.
    private mutating func close(_ generation: UInt64, _ reason: String, at now: Int64) -> [PeerAction] {
        guard connections[generation] != nil else { return [] }
        return [.close(generation: generation, reason: reason)] + forget(generation, at: now)
    }

    /// The connection is gone: its requests fail, its peer hears of it, and a kept peer whose
    /// last connection this was is dialed again.
    private mutating func forget(_ generation: UInt64, at now: Int64) -> [PeerAction] {
        guard let connection = connections.removeValue(forKey: generation) else { return [] }
        var actions: [PeerAction] = []
        // Only the requests this connection carried are lost with it: when both nodes dial at
        // once, the connection that is dropped may end after the kept one has carried requests.
        for (id, request) in requests.sorted(by: { $0.key < $1.key }) where request.generation == generation {
            requests[id] = nil
            actions.append(.failRequest(id))
        }
        guard let node = connection.node else { return actions }
        actions.append(.lost(generation: generation, node: node, wasReady: connection.phase == .ready))
        guard connection.phase == .ready, var peer = peers[node], peer.kept, readyConnection(to: node) == nil else { return actions }
        // Counted from the last word heard: a silent connection was noticed only after the
        // silence limit.
        peer.downSinceMs = min(peer.downSinceMs ?? connection.lastHeardMs, connection.lastHeardMs)
        peers[node] = peer
        if peer.dial == nil, !hasConnectionOnItsWay(to: node) { actions.append(startDial(node, at: now, redial: true)) }
        return actions
    }
}
