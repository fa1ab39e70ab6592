import Cluster
import Foundation
import Logging
import RoomEngine

/// The node-to-node control connections of a cluster node: one connection per pair of nodes
/// (a WebSocket to path `/cluster` of the peer's control listener, authenticated with a node
/// token signed by the cluster's shared key), carrying ``PeerMessage``s both ways.
///
/// What to do and when is decided by ``PeerConnections``, a value driven by the connections'
/// events and the time; this actor only carries its actions out: it dials through a
/// ``PeerDialer``, writes each connection's queue, tells the relay core, and sleeps until the
/// next moment the rules name (one timer, rescheduled as the deadlines change).
actor ClusterPeers: PeerLink {
    let nodeId: String
    /// This process's instance: a peer that comes back under the same node id as a new process
    /// lost its rooms, and forwards into them fail.
    let instance: String
    nonisolated let outbox: PeerOutbox
    nonisolated let logger: Logger
    let dialer: any PeerDialer
    private weak var core: RelayCore?
    private var rules: PeerConnections
    /// The clock's zero: the rules' milliseconds count from it.
    private let origin = ContinuousClock.now

    /// An open connection's queue, and the signal that closes it at once.
    private struct Link {
        var queue: AsyncStream<String>.Continuation
        var cut: AsyncStream<String>.Continuation
    }

    private var links: [UInt64: Link] = [:]
    private var dials: [UInt64: Task<Void, Never>] = [:]
    private var waiting: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    /// Requests waiting for their answers.
    private var pending: [Int: CheckedContinuation<PeerReply?, Never>] = [:]
    private var nextRequestId = 1
    private var timer: (deadlineMs: Int64, task: Task<Void, Never>)?
    private let decoder = JSONDecoder()

    static let defaultTimings = PeerConnections.Timings(goneAfterMs: 10_000)

    init(nodeId: String, logger: Logger, timings: PeerConnections.Timings, dialer: any PeerDialer, outboxCapacity: Int = 16384) {
        self.nodeId = nodeId
        self.logger = logger
        self.dialer = dialer
        self.outbox = PeerOutbox(capacity: outboxCapacity)
        self.instance = UUID().uuidString
        self.rules = PeerConnections(nodeId: nodeId, timings: timings)
    }

    func attach(_ core: RelayCore) { self.core = core }

    private var nowMs: Int64 {
        let elapsed = ContinuousClock.now - origin
        return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    }

    // MARK: PeerLink

    /// Sends a request to `node` (dialing it when no connection is up) and waits for the answer;
    /// nil when the node cannot be reached, the connection that carried the request ends, or
    /// the answer does not come in time.
    func request(_ request: PeerRequest, to node: ClusterNode) async -> PeerReply? {
        guard await ensureConnection(to: node) else { return nil }
        let id = nextRequestId
        nextRequestId += 1
        guard let generation = outbox.send(.request(id: id, request), to: node.id) else { return nil }
        rules.sent(request: id, on: generation, at: nowMs)
        reschedule()
        return await withCheckedContinuation { pending[id] = $0 }
    }

    nonisolated func notify(_ notice: NodeNotice) {
        outbox.send(.notice(notice), to: notice.node)
    }

    nonisolated var connectedPeers: (peers: [String], losses: UInt64) { outbox.connectedPeers }

    /// The node asked under `id` before, if this node ever did.
    func knownNode(_ id: String) -> ClusterNode? { rules.addresses[id] }

    /// Closes every connection and dials no peer again (shutdown).
    func closeAll() async {
        await perform(rules.closeAll(at: nowMs))
    }

    /// Waits until a ready connection to `node` is up, dialing it if needed.
    func ensureConnection(to node: ClusterNode) async -> Bool {
        let (waiter, actions) = rules.need(node, at: nowMs)
        if actions.contains(.resolveWaiter(waiter, ready: true)) { return true }
        return await withCheckedContinuation { continuation in
            waiting[waiter] = continuation
            // Only dials: nothing here waits.
            for case .dial(let address, let attempt) in actions { startDial(address, attempt: attempt) }
            reschedule()
        }
    }

    // MARK: Connections

    /// Runs one node-to-node connection until it ends: `dialed` is the peer this node dialed
    /// (in attempt `attempt`); an accepted connection learns its peer from the first hello.
    /// `messages` are the texts that arrive, `write` sends one.
    nonisolated func serve<Messages: AsyncSequence & Sendable>(
        messages: Messages, write: @escaping @Sendable (String) async throws -> Void, dialed: ClusterNode?
    ) async where Messages.Element == String {
        let (queue, queueContinuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(outbox.capacity))
        let (cut, cutContinuation) = AsyncStream<String>.makeStream()
        guard let generation = await opened(dialed: dialed, link: Link(queue: queueContinuation, cut: cutContinuation)) else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in queue {
                    do { try await write(text) } catch { break }
                }
            }
            group.addTask {
                // Requests are answered on the side: one may wait on the database, and the
                // connection's other messages (its pings too) must not wait behind it.
                await withDiscardingTaskGroup { requests in
                    do {
                        for try await text in messages {
                            guard let (id, request, node) = await self.received(text, on: generation) else { continue }
                            requests.addTask { await self.answer(request, id: id, from: node, on: queueContinuation) }
                        }
                    } catch {
                        self.logger.debug("cluster connection ended with an error", metadata: ["error": "\(error)"])
                    }
                }
            }
            group.addTask {
                var reason: String?
                for await why in cut { reason = why }
                if let reason { await self.cut(generation, why: reason) }
            }
            // Whichever ends first ends the connection: the peer closed it, a write failed, or
            // this node closed it. The rules and the relay core hear it at once; requests still
            // being answered finish on their own.
            await group.next()
            await self.closed(generation)
            group.cancelAll()
        }
    }

    private func opened(dialed: ClusterNode?, link: Link) async -> UInt64? {
        let (generation, actions) = rules.opened(dialedTo: dialed?.id, at: nowMs)
        links[generation] = link
        await perform(actions)
        return rules.isOpen(generation) ? generation : nil
    }

    private func closed(_ generation: UInt64) async {
        links[generation] = nil
        await perform(rules.closed(generation, at: nowMs))
    }

    private func cut(_ generation: UInt64, why: String) async {
        await perform(rules.failed(generation, why: why, at: nowMs))
    }

    /// Takes one message in; returns a request to answer on the side.
    private func received(_ text: String, on generation: UInt64) async -> (Int, PeerRequest, String)? {
        let now = nowMs
        rules.heard(generation, at: now)
        guard let message = try? decoder.decode(PeerMessage.self, from: Data(text.utf8)) else {
            logger.warning("cluster peer sent a message that does not parse", metadata: ["peer": "\(rules.peer(of: generation) ?? "-")"])
            return nil
        }
        switch message {
        case .ping:
            return nil
        case .hello(let hello):
            await perform(rules.helloReceived(hello, on: generation, at: now))
            return nil
        default:
            break
        }
        // Anything else only once the connection is up.
        guard let node = rules.peer(of: generation), let core else { return nil }
        switch message {
        case .hello, .ping:
            return nil
        case .reply(let id, let reply):
            rules.answered(request: id)
            pending.removeValue(forKey: id)?.resume(returning: reply)
        case .request(let id, let request):
            return (id, request, node)
        case .notice(let notice):
            await core.peerNotice(notice, from: node)
        }
        return nil
    }

    private func answer(_ request: PeerRequest, id: Int, from node: String, on queue: AsyncStream<String>.Continuation) async {
        guard let core else { return }
        let reply: PeerReply
        switch request {
        case .verify(let verification): reply = await core.peerVerify(verification, from: node)
        case .link(let proposal): reply = await core.peerLink(proposal, from: node)
        case .invite(let proposal): reply = await core.peerInvite(proposal, from: node)
        case .sync: reply = .synced
        case .roomUsers(let roomId): reply = .roomUsers(await core.adminUsers(of: roomId, servedHereOnly: true))
        case .audienceNode(let roomId, let userId): reply = .audienceNode(await core.spillTarget(roomId: roomId, userId: userId)?.id)
        }
        if let text = outbox.encode(.reply(id: id, reply)) { queue.yield(text) }
    }

    // MARK: Carrying out the rules' actions

    private func perform(_ actions: [PeerAction]) async {
        var reasons: [UInt64: String] = [:]
        for action in actions {
            switch action {
            case .dial(let node, let attempt):
                startDial(node, attempt: attempt)
            case .redial(let node, let attempt):
                // Later dials only while this node still forwards into rooms there.
                if let core, await core.wantsPeer(node.id) {
                    startDial(node, attempt: attempt)
                } else {
                    await perform(rules.unwanted(node.id, at: nowMs))
                }
            case .cancelDial(let attempt):
                dials.removeValue(forKey: attempt)?.cancel()
            case .greet(let generation, let node):
                await greet(generation, node: node)
            case .establish(let generation, let node, let hello):
                await establish(generation, node: node, hello: hello)
            case .ping(let generation):
                if let text = outbox.encode(.ping) { links[generation]?.queue.yield(text) }
            case .close(let generation, let reason):
                if let link = links.removeValue(forKey: generation) {
                    link.queue.finish()
                    link.cut.finish()
                }
                reasons[generation] = reason
                logger.debug("cluster connection closed", metadata: ["reason": "\(reason)"])
            case .lost(let generation, let node, let wasReady):
                outbox.close(node: node, generation: generation, wasReady: wasReady)
                if wasReady {
                    logger.warning("cluster peer disconnected", metadata: ["peer": "\(node)", "reason": "\(reasons[generation] ?? "closed by the peer")"])
                }
                await core?.peerLost(node: node, generation: generation)
            case .gone(let node):
                logger.warning("cluster peer gone: unreachable for the lease", metadata: ["peer": "\(node)"])
                await core?.peerGone(node)
            case .resolveWaiter(let waiter, let ready):
                waiting.removeValue(forKey: waiter)?.resume(returning: ready)
            case .failRequest(let id):
                pending.removeValue(forKey: id)?.resume(returning: nil)
            }
        }
        reschedule()
    }

    private func startDial(_ node: ClusterNode, attempt: UInt64) {
        let dialer = self.dialer
        let logger = self.logger
        dials[attempt] = Task { [weak self] in
            guard let self else { return }
            do {
                try await dialer.dial(node, into: self)
            } catch {
                logger.debug("cluster peer unreachable", metadata: ["peer": "\(node.id)", "url": "\(node.controlURL)", "error": "\(error)"])
            }
            await self.dialEnded(attempt)
        }
    }

    /// A dial task ended: it never connected, or its connection has ended.
    private func dialEnded(_ attempt: UInt64) async {
        dials[attempt] = nil
        await perform(rules.dialFailed(attempt, at: nowMs))
    }

    /// Queues the connection's messages for `node`, opens this node's end of the media pipe and
    /// says hello.
    private func greet(_ generation: UInt64, node: String) async {
        guard let link = links[generation], let core else {
            return await perform(rules.failed(generation, why: "this node is not ready for peers yet", at: nowMs))
        }
        outbox.open(node: node, generation: generation, queue: link.queue, cut: link.cut)
        guard let offer = await core.openPeerPipe(node: node, generation: generation) else {
            logger.error("cluster connection refused: no media port for the pipe", metadata: ["peer": "\(node)"])
            return await perform(rules.failed(generation, why: "no media port for the pipe", at: nowMs))
        }
        let hello = PeerMessage.hello(PeerHello(version: PeerMessage.version, node: nodeId, instance: instance, pipe: offer))
        if let text = outbox.encode(hello) { link.queue.yield(text) }
    }

    /// Both hellos are through: the queue takes every message from now on, and then the relay
    /// core connects the pipe and sends every mirror again, on this connection.
    private func establish(_ generation: UInt64, node: String, hello: PeerHello) async {
        guard rules.isOpen(generation), let core else { return }
        outbox.markReady(node: node, generation: generation)
        guard await core.peerReady(node: node, generation: generation, remote: hello.pipe, instance: hello.instance) else {
            return await perform(rules.failed(generation, why: "the media pipe could not be connected", at: nowMs))
        }
        logger.info("cluster peer connected", metadata: ["peer": "\(node)", "pipe": "\(hello.pipe.ip):\(hello.pipe.port)"])
        await perform(rules.established(generation, at: nowMs))
    }

    // MARK: The timer

    /// Sleeps until the rules' next deadline; an earlier deadline replaces a later one.
    private func reschedule() {
        guard let deadline = rules.nextDeadlineMs else {
            timer?.task.cancel()
            timer = nil
            return
        }
        if let timer, timer.deadlineMs <= deadline { return }
        timer?.task.cancel()
        let wake = origin + .milliseconds(deadline)
        timer = (
            deadline,
            Task { [weak self] in
                try? await Task.sleep(until: wake, clock: .continuous)
                guard !Task.isCancelled else { return }
                await self?.fire(deadline)
            }
        )
    }

    private func fire(_ deadline: Int64) async {
        if timer?.deadlineMs == deadline { timer = nil }
        await perform(rules.advance(to: nowMs))
    }
}
