import Cluster
import Deadline
import Foundation
import HummingbirdWSClient
import Hummingbird
import HummingbirdWebSocket
import Logging
import RoomEngine
import Synchronization

/// The node-to-node control connections of a cluster node: one WebSocket per pair of nodes
/// (path `/cluster` on the control listener, authenticated with a node token signed by the
/// cluster's shared key), carrying ``PeerMessage``s both ways. The node that needs a peer dials
/// it and keeps the connection up while it forwards into rooms there; a connection silent for
/// ``silenceLimit`` is dropped (a stopped or cut-off peer), and a peer unreachable for the
/// cluster's lease is gone.
actor ClusterPeers: PeerLink {
    let nodeId: String
    /// This process's instance: a peer that comes back under the same node id as a new process
    /// lost its rooms, and forwards into them fail.
    let instance: String
    let outbox = PeerOutbox()
    let logger: Logger
    /// A fresh node token for dialing.
    let bearer: @Sendable () -> String
    /// How long a peer may stay unreachable before its rooms count as gone.
    let goneAfter: Duration
    private weak var core: RelayCore?

    private struct Connection {
        var node: String?
        /// Dialed from here (else accepted).
        var dialed: Bool
        var queue: AsyncStream<String>.Continuation
        var lastHeard: ContinuousClock.Instant
        var ready = false
        var ended = false
    }

    private var connections: [UInt64: Connection] = [:]
    private var nextGeneration: UInt64 = 1
    private var keepers: [String: Task<Void, Never>] = [:]
    /// The nodes this node has dialed, by id: a request to a node known here needs no directory.
    private var knownNodes: [String: ClusterNode] = [:]
    private var attemptsRunning: Set<String> = []
    /// How many connections to each peer have become ready.
    private var connectionsReady: [String: Int] = [:]
    /// When each peer whose connection ended was last heard from.
    private var lastHeard: [String: ContinuousClock.Instant] = [:]
    private var readyWaiters: [String: [CheckedContinuation<Bool, Never>]] = [:]
    /// Requests waiting for their answers, with the connection each went on.
    private var pending: [Int: (generation: UInt64, answer: CheckedContinuation<PeerReply?, Never>)] = [:]
    private var nextRequestId = 1

    static let pingInterval: Duration = .seconds(1)
    static let silenceLimit: Duration = .seconds(3)
    static let requestTimeout: Duration = .seconds(5)
    static let connectTimeout: Duration = .seconds(5)

    init(nodeId: String, logger: Logger, goneAfter: Duration, bearer: @escaping @Sendable () -> String) {
        self.nodeId = nodeId
        self.logger = logger
        self.goneAfter = goneAfter
        self.bearer = bearer
        self.instance = UUID().uuidString
    }

    func attach(_ core: RelayCore) { self.core = core }

    // MARK: Requests

    /// Sends a request to `node` (dialing it when no connection is up) and waits for the answer;
    /// nil when the node cannot be reached or does not answer in time.
    func request(_ request: PeerRequest, to node: ClusterNode) async -> PeerReply? {
        guard await ensureConnection(to: node) else { return nil }
        let id = nextRequestId
        nextRequestId += 1
        guard let generation = outbox.send(.request(id: id, request), to: node.id) else { return nil }
        Task { [weak self] in
            try? await Task.sleep(for: Self.requestTimeout)
            await self?.answer(id, with: nil)
        }
        return await withCheckedContinuation { answer in pending[id] = (generation, answer) }
    }

    private func answer(_ id: Int, with reply: PeerReply?) {
        pending.removeValue(forKey: id)?.answer.resume(returning: reply)
    }

    nonisolated func notify(_ notice: NodeNotice) {
        outbox.send(.notice(notice), to: notice.node)
    }

    nonisolated var connectedPeers: (peers: [String], losses: UInt64) { outbox.connectedPeers }

    /// The node dialed under `id`, if this node ever did.
    func knownNode(_ id: String) -> ClusterNode? { knownNodes[id] }

    /// Waits until a ready connection to `node` is up, dialing it if needed.
    func ensureConnection(to node: ClusterNode) async -> Bool {
        keep(node)
        if outbox.isReady(node.id) { return true }
        let waiter = Task { [weak self] in
            try? await Task.sleep(for: Self.connectTimeout)
            await self?.resolveWaiters(node.id, ready: false)
        }
        defer { waiter.cancel() }
        if outbox.isReady(node.id) { return true }
        return await withCheckedContinuation { readyWaiters[node.id, default: []].append($0) }
    }

    private func resolveWaiters(_ node: String, ready: Bool) {
        for waiter in readyWaiters.removeValue(forKey: node) ?? [] { waiter.resume(returning: ready) }
    }

    // MARK: Dialing

    /// Keeps a connection to `node` up while this node forwards into rooms there: dials, redials
    /// every second after a loss, and declares the node gone after ``goneAfter`` without one.
    func keep(_ node: ClusterNode) {
        knownNodes[node.id] = node
        guard keepers[node.id] == nil else { return }
        keepers[node.id] = Task { [weak self] in
            await self?.keepLoop(node)
        }
    }

    private func keeperEnded(_ node: String) { keepers[node] = nil }

    /// A dial attempt ended (its connection closed, or it never opened). Requests waiting for the
    /// peer are given up a moment later unless a connection is ready by then: a dial that lost to
    /// the peer's own dial (see ``hello(_:generation:)``) is followed by that one becoming ready.
    private func attemptEnded(_ node: String) {
        attemptsRunning.remove(node)
        if outbox.isReady(node) {
            resolveWaiters(node, ready: true)
            return
        }
        Task { [weak self] in
            try? await Task.sleep(for: Self.crossedDialGrace)
            await self?.giveUpUnlessReady(node)
        }
    }

    private func giveUpUnlessReady(_ node: String) {
        if outbox.isReady(node) { return resolveWaiters(node, ready: true) }
        // The peer's own connection is still exchanging hellos, or an accepted one has not said
        // who it is yet (slow under load): it resolves the waiters when ready, or the request's
        // own timeout does.
        if connections.values.contains(where: { !$0.ended && ($0.node == node || ($0.node == nil && !$0.dialed)) }) { return }
        resolveWaiters(node, ready: false)
    }

    /// How long a failed dial waits for the peer's own connection before its requests fail.
    static let crossedDialGrace: Duration = .milliseconds(500)

    private func keepLoop(_ node: ClusterNode) async {
        // Counted from the last word heard from the peer: a silent connection was noticed only
        // after the silence limit.
        var downSince: ContinuousClock.Instant?
        // The first dial is for a request waiting on it; later ones only while this node still
        // forwards into rooms there.
        var first = true
        while !Task.isCancelled {
            if outbox.isReady(node.id) {
                downSince = nil
                first = false
                try? await Task.sleep(for: .milliseconds(250))
                continue
            }
            // A connection with the peer is still exchanging hellos (the peer's own dial, most
            // likely): dialing now would replace it.
            if connections.values.contains(where: { $0.node == node.id && !$0.ended }) {
                try? await Task.sleep(for: .milliseconds(50))
                continue
            }
            guard let core else { break }
            if !first, !(await core.wantsPeer(node.id)) { break }
            let now = ContinuousClock.now
            let since = downSince ?? (first ? now : lastHeard[node.id] ?? now)
            downSince = since
            if !first, now - since >= goneAfter {
                logger.warning("cluster peer gone: unreachable for the lease", metadata: ["peer": "\(node.id)"])
                await core.peerGone(node.id)
                break
            }
            let url = Self.peerURL(node.controlURL)
            let attempt = Task { [weak self] in
                guard let self else { return }
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(bearer())"
                let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20, additionalHeaders: headers, closeTimeout: .seconds(1))
                do {
                    _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                        await self.serve(inbound: inbound, outbound: outbound, dialed: node.id)
                    }
                } catch {
                    logger.debug("cluster peer unreachable", metadata: ["peer": "\(node.id)", "url": "\(url)", "error": "\(error)"])
                }
                await self.attemptEnded(node.id)
            }
            // A peer that accepts the connection but never answers (stopped) must not hold the
            // loop: past the connect timeout, or when the peer is due to count as gone, the
            // attempt is abandoned.
            let readyBefore = connectionsReady[node.id, default: 0]
            let deadline = min(now + Self.connectTimeout, since + goneAfter)
            attemptsRunning.insert(node.id)
            while !outbox.isReady(node.id), attemptsRunning.contains(node.id), ContinuousClock.now < deadline, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(50))
            }
            // A connection that came up and went again while this loop slept counts as up.
            if connectionsReady[node.id, default: 0] != readyBefore { first = false; downSince = nil; continue }
            if !outbox.isReady(node.id) {
                attempt.cancel()
                if first { break }
                let retry = min(now + .seconds(1), since + goneAfter)
                if retry > ContinuousClock.now { try? await Task.sleep(until: retry) }
            }
        }
        keeperEnded(node.id)
    }

    /// A node's `/cluster` URL from its control URL (`ws://host:port/rtc`).
    static func peerURL(_ controlURL: String) -> String {
        var base = controlURL
        if base.hasSuffix("/rtc") { base.removeLast(4) }
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/cluster"
    }

    // MARK: Connections

    /// Runs one node-to-node connection until it ends: `dialed` names the peer this node dialed;
    /// an accepted connection learns its peer from the first hello.
    nonisolated func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, dialed: String?) async {
        let (queue, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(16384))
        let generation = await opened(queue: continuation, dialed: dialed)
        let writer = Task {
            for await text in queue {
                do { try await outbound.write(.text(text)) } catch { break }
            }
            await self.ended(generation, why: "closed")
            try? await outbound.close(.goingAway, reason: "cluster connection closed")
        }
        let heartbeat = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.pingInterval)
                guard let self, !Task.isCancelled, await self.beat(generation) else { break }
            }
        }
        do {
            for try await message in inbound.messages(maxSize: 1 << 20) {
                if case .text(let text) = message { await received(text, generation: generation) }
            }
        } catch {
            logger.debug("cluster connection ended with an error", metadata: ["error": "\(error)"])
        }
        heartbeat.cancel()
        await ended(generation, why: "closed by the peer")
        _ = await writer.value
        await forget(generation)
    }

    /// Drops what is left of a connection that closed before it was ever in use.
    private func forget(_ generation: UInt64) {
        if connections[generation]?.ended == true { connections[generation] = nil }
    }

    private func opened(queue: AsyncStream<String>.Continuation, dialed: String?) async -> UInt64 {
        let generation = nextGeneration
        nextGeneration += 1
        if let dialed, connections.values.contains(where: { $0.node == dialed && !$0.ended }) {
            // A connection with the peer came up (its own dial) while this one was on its way:
            // that one is kept, and this one closes without a word.
            connections[generation] = Connection(node: nil, dialed: true, queue: queue, lastHeard: .now, ended: true)
            queue.finish()
            return generation
        }
        connections[generation] = Connection(node: dialed, dialed: dialed != nil, queue: queue, lastHeard: .now)
        if let dialed {
            outbox.open(node: dialed, generation: generation, queue: queue)
            sendHello(on: generation, to: dialed, offer: await core?.openPeerPipe(node: dialed, generation: generation))
        }
        return generation
    }

    private func sendHello(on generation: UInt64, to node: String, offer: PipeOffer?) {
        guard let connection = connections[generation] else { return }
        guard let offer else {
            logger.error("cluster connection refused: no media port for the pipe", metadata: ["peer": "\(node)"])
            connection.queue.finish()
            return
        }
        let hello = PeerMessage.hello(PeerHello(version: PeerMessage.version, node: nodeId, instance: instance, pipe: offer))
        if let text = outbox.encode(hello) { connection.queue.yield(text) }
    }

    /// Sends a ping; false when the peer has been silent too long (the connection is dropped).
    private func beat(_ generation: UInt64) async -> Bool {
        guard let connection = connections[generation], !connection.ended else { return false }
        if ContinuousClock.now - connection.lastHeard > Self.silenceLimit {
            await ended(generation, why: "silent for \(Self.silenceLimit)")
            return false
        }
        if let text = outbox.encode(.ping) { connection.queue.yield(text) }
        return true
    }

    private func received(_ text: String, generation: UInt64) async {
        guard var connection = connections[generation], !connection.ended else { return }
        connection.lastHeard = .now
        connections[generation] = connection
        guard let message = try? JSONDecoder().decode(PeerMessage.self, from: Data(text.utf8)) else {
            logger.warning("cluster peer sent a message that does not parse", metadata: ["peer": "\(connection.node ?? "-")"])
            return
        }
        switch message {
        case .ping:
            return
        case .hello(let hello):
            await self.hello(hello, generation: generation)
            return
        default:
            break
        }
        guard let node = connection.node, connection.ready, let core else { return }
        switch message {
        case .hello, .ping:
            return
        case .reply(let id, let reply):
            answer(id, with: reply)
        case .request(let id, let request):
            // Answered on the side: a request may wait on the database, and the connection's
            // other messages (its pings too) must not wait behind it.
            let queue = connection.queue
            let outbox = outbox
            Task {
                let reply: PeerReply
                switch request {
                case .verify(let verification): reply = await core.peerVerify(verification, from: node)
                case .link(let proposal): reply = await core.peerLink(proposal, from: node)
                case .invite(let proposal): reply = await core.peerInvite(proposal, from: node)
                }
                if let text = outbox.encode(.reply(id: id, reply)) { queue.yield(text) }
            }
        case .notice(let notice):
            await core.peerNotice(notice, from: node)
        }
    }

    private func hello(_ hello: PeerHello, generation: UInt64) async {
        guard let core else {
            await ended(generation, why: "this node is not ready for peers yet")
            return
        }
        guard hello.version == PeerMessage.version else {
            logger.error("cluster peer speaks another version of the node-to-node protocol; run one release on every node", metadata: [
                "peer": "\(hello.node)", "peerVersion": "\(hello.version)", "version": "\(PeerMessage.version)",
            ])
            await ended(generation, why: "the peer speaks version \(hello.version), this node \(PeerMessage.version)")
            return
        }
        let peer = hello.node
        let instance = hello.instance
        let remote = hello.pipe
        guard peer != nodeId, var connection = connections[generation], !connection.ready else {
            await ended(generation, why: "a hello from this node itself, or a second hello")
            return
        }
        if let expected = connection.node, expected != peer {
            await ended(generation, why: "the peer is \(peer), not \(expected)")
            return
        }
        if connection.node == nil, nodeId < peer,
           connections.contains(where: { $0.key != generation && $0.value.node == peer && $0.value.dialed && !$0.value.ended }) {
            // Both nodes dialed at once: the connection the node with the smaller id dialed is the
            // one kept, on both sides (the peer, the larger, drops its own when it accepts ours).
            await ended(generation, why: "the connection dialed from here to \(peer) is the one kept")
            return
        }
        if connection.node == nil {
            // Accepted: the peer is known now, and it hears this node's end of the pipe.
            connection.node = peer
            connections[generation] = connection
            outbox.open(node: peer, generation: generation, queue: connection.queue)
            sendHello(on: generation, to: peer, offer: await core.openPeerPipe(node: peer, generation: generation))
        }
        guard connections[generation]?.ended == false, await core.peerReady(node: peer, generation: generation, remote: remote, instance: instance) else {
            await ended(generation, why: "the media pipe could not be connected")
            return
        }
        connections[generation]?.ready = true
        outbox.markReady(node: peer, generation: generation)
        connectionsReady[peer, default: 0] += 1
        logger.info("cluster peer connected", metadata: ["peer": "\(peer)", "pipe": "\(remote.ip):\(remote.port)"])
        resolveWaiters(peer, ready: true)
    }

    /// The connection ended (closed, failed or silent): once only, the relay core hears it.
    private func ended(_ generation: UInt64, why: String) async {
        guard var connection = connections[generation], !connection.ended else { return }
        connection.ended = true
        connections[generation] = nil
        connection.queue.finish()
        guard let node = connection.node else { return }
        lastHeard[node] = connection.lastHeard
        outbox.close(node: node, generation: generation, wasReady: connection.ready)
        // Only the requests this connection carried are lost with it. When both nodes dial at
        // once, the connection that is dropped may end after the kept one has carried requests:
        // those are still answered.
        for (id, request) in pending where request.generation == generation {
            pending[id] = nil
            request.answer.resume(returning: nil)
        }
        if connection.ready { logger.warning("cluster peer disconnected", metadata: ["peer": "\(node)", "reason": "\(why)"]) }
        await core?.peerLost(node: node, generation: generation)
    }

    /// Closes every connection (shutdown).
    func closeAll() async {
        for task in keepers.values { task.cancel() }
        keepers = [:]
        for generation in connections.keys.sorted() { await ended(generation, why: "shutting down") }
    }
}
