import Protocol
import RoomEngine
import Testing

/// Two room engines as two cluster nodes, "a" and "b", wired through a scripted peer link:
/// what one engine tells the other (``EngineAction/notify(_:)``) waits in the link until
/// ``deliver()``, which hands it to the other engine as the node-to-node connection would; the
/// requests a relay core asks another node (verify a forward, link, invite) are answered by
/// the other engine directly. Each node keeps its own ``Scenario`` log, so tests ask each side
/// what its sessions heard.
struct ClusterScenario {
    var a = Scenario(seed: 0xA)
    var b = Scenario(seed: 0xB)
    /// Each node's media pipe to the other, and the rooms' placement epochs.
    let pipeOnA = 900
    let pipeOnB = 901
    var epochs: [String: Int64] = [:]
    /// Notices sent and not delivered yet, in order: (receiver, notice).
    private(set) var inFlight: [(to: String, notice: NodeNotice)] = []
    /// How much of each log the link has taken notices from.
    private var taken: [String: Int] = ["a": 0, "b": 0]
    /// Whether the connection between the two is up.
    private(set) var connected = false

    init() {
        connect()
    }

    // MARK: The connection

    /// The node-to-node connection comes up (again): each engine hears that the other node is ready on its pipe.
    mutating func connect() {
        connected = true
        _ = a.record(actions: a.engine.remoteNodeReady("b", pipeTransportId: pipeOnA))
        _ = b.record(actions: b.engine.remoteNodeReady("a", pipeTransportId: pipeOnB))
        collect()
    }

    /// The connection drops: what is in flight is lost, and each engine hears that the other
    /// node was lost with its pipe.
    mutating func disconnect() {
        collect()
        inFlight = []
        connected = false
        _ = a.record(actions: a.engine.remoteNodeLost("b", pipeTransportId: pipeOnA))
        _ = b.record(actions: b.engine.remoteNodeLost("a", pipeTransportId: pipeOnB))
        collect()
        inFlight = []
    }

    /// Takes every notice the two engines wrote since the last call into the link.
    private mutating func collect() {
        for (name, scenario) in [("a", a), ("b", b)] {
            let log = scenario.log
            for action in log[taken[name]!...] {
                guard case .notify(let notice) = action else { continue }
                if connected { inFlight.append((notice.node, notice)) }
            }
            taken[name] = log.count
        }
    }

    /// Delivers what is in flight, and what that causes, until both sides are quiet. Returns
    /// the number of notices delivered.
    @discardableResult
    mutating func deliver() -> Int {
        collect()
        var delivered = 0
        while !inFlight.isEmpty {
            let (to, notice) = inFlight.removeFirst()
            delivered += 1
            if to == "b" {
                _ = b.record(actions: b.engine.receive(notice, from: "a", now: b.now))
            } else {
                _ = a.record(actions: a.engine.receive(notice, from: "b", now: a.now))
            }
            collect()
        }
        return delivered
    }

    /// The notices in flight, without delivering them.
    mutating func pending() -> [NodeNotice] {
        collect()
        return inFlight.map(\.notice)
    }

    mutating func advance(seconds: Double) {
        a.advance(seconds: seconds)
        b.advance(seconds: seconds)
    }

    // MARK: Requests across the link

    /// Where a room on the other node is, as the asking node names it.
    func target(_ roomId: String, on node: String) -> RemoteTarget {
        RemoteTarget(node: node, pipeTransportId: node == "b" ? pipeOnA : pipeOnB, epoch: epochs[roomId] ?? 1)
    }

    /// A forward from a user on node a into rooms on node b, each verified by b as a relay core
    /// does (the room must be able to show the user; the token is taken as valid).
    @discardableResult
    mutating func forwardFromA(_ client: Client, room: String, into targets: [String], update: Bool = false) -> EngineOutcome<ForwardStreamResult> {
        let requests = targets.map { targetRoom -> ForwardTargetRequest in
            if let refusal = b.engine.remoteMirrorRefusal(node: "a", sourceRoomId: room, targetRoomId: targetRoom, userId: client.userId) {
                return ForwardTargetRequest(roomId: targetRoom, grants: .failure(refusal))
            }
            return ForwardTargetRequest(
                roomId: targetRoom, grants: .success(a.grants(publish: true, subscribe: false, forward: false)), remote: target(targetRoom, on: "b"))
        }
        let outcome =
            update
            ? a.engine.updateForward(session: client.session, roomId: room, targets: requests, now: a.now)
            : a.engine.startForward(session: client.session, roomId: room, targets: requests, now: a.now)
        return a.record(outcome)
    }

    /// connectOtherRoom from an anchor on node a to an anchor on node b, as the two relay cores
    /// run it: a checks its caller, b accepts its half, then a holds its own.
    @discardableResult
    mutating func linkFromA(_ caller: Client, room: String, to peerRoom: String, _ peerUser: String) -> EngineOutcome<ConnectOtherRoomEvent> {
        let params = ConnectOtherRoomParams(roomId: peerRoom, userId: peerUser, localRoomId: room)
        if case .failure(let error) = a.engine.validateRemoteLink(session: caller.session, params: params) {
            return EngineOutcome(result: .failure(error), actions: [])
        }
        let accepted = b.record(
            b.engine.acceptRemoteLink(
                from: target(room, on: "a"), callerRoomId: room, callerUserId: caller.userId, peerRoomId: peerRoom, peerUserId: peerUser, now: b.now))
        if case .failure(let error) = accepted.result { return EngineOutcome(result: .failure(error), actions: []) }
        return a.record(a.engine.createRemoteLink(session: caller.session, params: params, remote: target(peerRoom, on: "b"), now: a.now))
    }

    /// invite from an anchor on node a to an anchor on node b, as the two relay cores run it.
    @discardableResult
    mutating func inviteFromA(_ caller: Client, room: String, to peerRoom: String, _ peerUser: String, autoLink: Bool = false) -> EngineOutcome<InviteResult> {
        let params = InviteParams(roomId: peerRoom, userId: peerUser, localRoomId: room, payload: "pk?", timeoutSeconds: 30, autoLink: autoLink)
        let checked: (roomId: String, userId: String, timeoutSeconds: Int)
        switch a.engine.validateRemoteInvite(session: caller.session, params: params) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): checked = found
        }
        let id = a.engine.allocateInvitationId(prefix: "a")
        let received = b.record(
            b.engine.receiveRemoteInvitation(
                from: target(room, on: "a"), id: id, callerRoomId: checked.roomId, callerUserId: checked.userId, calleeRoomId: peerRoom,
                calleeUserId: peerUser, payload: params.payload, timeoutSeconds: checked.timeoutSeconds, autoLink: autoLink, now: b.now))
        switch received.result {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let busy):
            return a.record(
                a.engine.recordRemoteInvitation(session: caller.session, params: params, id: id, to: target(peerRoom, on: "b"), busy: busy, now: a.now))
        }
    }
}
