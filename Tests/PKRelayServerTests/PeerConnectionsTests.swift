import Cluster
import Testing

@testable import PKRelayServer

/// The rules of the node-to-node connections (docs/CLUSTER.md, "The node-to-node connection",
/// "When the connection fails") on a scripted clock, without sockets: what ``PeerConnections``
/// asks for, and when.
@Suite struct PeerConnectionsTests {
    static let timings = PeerConnections.Timings(goneAfterMs: 10_000)
    static let b = ClusterNode(id: "b", controlURL: "ws://b.test:7700/rtc", mediaAddress: "127.0.0.1:41000", capacity: 100)

    static func hello(from node: String, version: Int = PeerMessage.version) -> PeerHello {
        PeerHello(version: version, node: node, instance: "\(node)-1", pipe: PipeOffer(ip: "127.0.0.1", port: 41_000, key: "k"))
    }

    /// Node a with a ready connection it dialed to b at `at` (a request waited for it).
    static func connected(at now: Int64 = 0) -> (rules: PeerConnections, generation: UInt64) {
        var rules = PeerConnections(nodeId: "a", timings: timings)
        let (waiter, dialing) = rules.need(b, at: now)
        guard case .dial(_, let attempt)? = dialing.first else { fatalError("no dial: \(dialing)") }
        _ = attempt
        let (generation, opening) = rules.opened(dialedTo: "b", at: now)
        #expect(opening == [.greet(generation: generation, node: "b")])
        #expect(rules.helloReceived(hello(from: "b"), on: generation, at: now) == [.establish(generation: generation, node: "b", hello: hello(from: "b"))])
        #expect(rules.established(generation, at: now) == [.resolveWaiter(waiter, ready: true)])
        return (rules, generation)
    }

    @Test func aRequestDialsItsNodeAndGoesOnceBothHellosAreThrough() {
        var rules = PeerConnections(nodeId: "a", timings: Self.timings)
        let (waiter, actions) = rules.need(Self.b, at: 0)
        #expect(actions == [.dial(Self.b, attempt: 1)])
        // A second request while the dial is on its way dials nothing more.
        #expect(rules.need(Self.b, at: 10).actions.isEmpty)
        let (generation, opening) = rules.opened(dialedTo: "b", at: 20)
        #expect(opening == [.greet(generation: generation, node: "b")])
        #expect(rules.readyConnection(to: "b") == nil, "not before the relay core took it up")
        _ = rules.helloReceived(Self.hello(from: "b"), on: generation, at: 30)
        let resolved = rules.established(generation, at: 30)
        #expect(resolved == [.resolveWaiter(waiter, ready: true), .resolveWaiter(waiter + 1, ready: true)])
        #expect(rules.readyConnection(to: "b") == generation)
        // Ready: the next request needs no dial.
        let next = rules.need(Self.b, at: 40)
        #expect(next.actions == [.resolveWaiter(next.waiter, ready: true)])
    }

    @Test func everyConnectionIsPingedEverySecondAndDroppedAfterThreeSecondsOfSilence() {
        var (rules, generation) = Self.connected()
        #expect(rules.nextDeadlineMs == 1000)
        #expect(rules.advance(to: 999).isEmpty)
        #expect(rules.advance(to: 1000) == [.ping(generation: generation)])
        #expect(rules.advance(to: 2000) == [.ping(generation: generation)])
        rules.heard(generation, at: 2500)
        #expect(rules.advance(to: 3000) == [.ping(generation: generation)])
        // Silent since 2.5 s: still up at 5.5 s, dropped just after.
        #expect(rules.advance(to: 5500) == [.ping(generation: generation)])
        let dropped = rules.advance(to: 5501)
        #expect(dropped.first == .close(generation: generation, reason: "silent for 3000 ms"))
        #expect(dropped.dropFirst().first == .lost(generation: generation, node: "b", wasReady: true))
        // A peer that was ready once is dialed again at once.
        #expect(dropped.last.map { if case .redial(Self.b, _) = $0 { true } else { false } } == true, "\(dropped)")
    }

    @Test func aLostPeerIsDialedEverySecondAndGoneOneLeaseAfterItsLastWord() {
        var (rules, generation) = Self.connected()
        rules.heard(generation, at: 500)
        var actions = rules.closed(generation, at: 1000)
        #expect(actions.first == .lost(generation: generation, node: "b", wasReady: true))
        guard case .redial(_, var attempt)? = actions.last else {
            Issue.record("no redial: \(actions)")
            return
        }
        // Each attempt fails at once; the next one starts a second after the one before.
        var dials: [Int64] = [1000]
        var now: Int64 = 1000
        var gone: Int64?
        while now < 20_000, gone == nil {
            actions = rules.dialFailed(attempt, at: now)
            #expect(actions.isEmpty)
            now = rules.nextDeadlineMs ?? 20_000
            actions = rules.advance(to: now)
            for action in actions {
                switch action {
                case .redial(_, let next):
                    attempt = next
                    dials.append(now)
                case .gone(let node):
                    #expect(node == "b")
                    gone = now
                default: Issue.record("unexpected \(action) at \(now)")
                }
            }
        }
        #expect(Array(dials.prefix(4)) == [1000, 2000, 3000, 4000])
        // Gone 10 s (the lease) after the last word at 0.5 s, not after the loss at 1 s.
        #expect(gone == 10_500)
        #expect(dials.last == 10_000)
        #expect(rules.nextDeadlineMs == nil, "nothing more to do for b")
    }

    @Test func anAttemptThatHangsIsGivenUpAtTheConnectTimeoutOrWhenThePeerIsDueToBeGone() {
        var (rules, generation) = Self.connected()
        let lost = rules.closed(generation, at: 0)
        guard case .redial(_, let first)? = lost.last else {
            Issue.record("no redial: \(lost)")
            return
        }
        // The peer accepts the connection and never answers: the attempt is abandoned at 5 s.
        #expect(rules.nextDeadlineMs == 5000)
        let abandoned = rules.advance(to: 5000)
        #expect(abandoned.first == .cancelDial(attempt: first))
        let second = rules.advance(to: rules.nextDeadlineMs!)
        guard case .redial(_, let next)? = second.first else {
            Issue.record("no second dial: \(second)")
            return
        }
        // This one is given up at 10 s, when the peer is gone, not 5 s after it began.
        #expect(rules.nextDeadlineMs == 10_000)
        let end = rules.advance(to: 10_000)
        #expect(end == [.cancelDial(attempt: next), .gone(node: "b")])
    }

    @Test func aPeerBackWithinTheLeaseIsConnectedAgainAndNotGone() {
        var (rules, generation) = Self.connected()
        let lost = rules.closed(generation, at: 1000)
        guard case .redial(_, let attempt)? = lost.last else {
            Issue.record("no redial: \(lost)")
            return
        }
        let (again, opening) = rules.opened(dialedTo: "b", at: 6000)
        #expect(opening == [.greet(generation: again, node: "b")])
        _ = rules.helloReceived(Self.hello(from: "b"), on: again, at: 6000)
        #expect(rules.established(again, at: 6000).isEmpty)
        _ = attempt
        // Up again: nothing is due but pings, long past the lease.
        for second in 7...20 {
            rules.heard(again, at: Int64(second) * 1000)
            #expect(rules.advance(to: Int64(second) * 1000).allSatisfy { $0 == .ping(generation: again) })
        }
    }

    @Test func aPeerNoLongerWantedIsNotDialedAgain() {
        var (rules, generation) = Self.connected()
        let lost = rules.closed(generation, at: 1000)
        guard case .redial(_, let attempt)? = lost.last else {
            Issue.record("no redial: \(lost)")
            return
        }
        #expect(rules.unwanted("b", at: 1000) == [.cancelDial(attempt: attempt)])
        #expect(rules.nextDeadlineMs == nil)
    }

    @Test func aFirstDialThatFailsFailsItsRequestsAfterTheCrossedDialGraceAndIsNotRepeated() {
        var rules = PeerConnections(nodeId: "a", timings: Self.timings)
        let (waiter, actions) = rules.need(Self.b, at: 0)
        guard case .dial(_, let attempt)? = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(rules.dialFailed(attempt, at: 100).isEmpty)
        #expect(rules.nextDeadlineMs == 600)
        #expect(rules.advance(to: 600) == [.resolveWaiter(waiter, ready: false)])
        #expect(rules.nextDeadlineMs == nil, "no redial of a peer never reached")
    }

    @Test func theRequestsWaitForThePeersOwnConnectionWhenBothDialedAtOnce() {
        var rules = PeerConnections(nodeId: "a", timings: Self.timings)
        let (waiter, actions) = rules.need(Self.b, at: 0)
        guard case .dial(_, let attempt)? = actions.first else {
            Issue.record("\(actions)")
            return
        }
        // b's own dial arrives; ours fails (b drops it, having the smaller... here the larger id).
        let (accepted, _) = rules.opened(dialedTo: nil, at: 50)
        #expect(rules.dialFailed(attempt, at: 100).isEmpty)
        // The grace passes while b's connection says hello: the request goes on waiting.
        #expect(rules.advance(to: 600).isEmpty)
        #expect(
            rules.helloReceived(Self.hello(from: "b"), on: accepted, at: 700) == [
                .greet(generation: accepted, node: "b"), .establish(generation: accepted, node: "b", hello: Self.hello(from: "b")),
            ])
        #expect(rules.established(accepted, at: 710) == [.resolveWaiter(waiter, ready: true)])
    }

    @Test func whenBothDialTheConnectionDialedByTheSmallerIdIsKeptOnBothSides() {
        // a < b. On a: a's dial is open; b's dial arrives and says hello: a drops it.
        var a = PeerConnections(nodeId: "a", timings: Self.timings)
        _ = a.need(Self.b, at: 0)
        let (aDialed, _) = a.opened(dialedTo: "b", at: 10)
        let (aAccepted, _) = a.opened(dialedTo: nil, at: 20)
        let dropped = a.helloReceived(Self.hello(from: "b"), on: aAccepted, at: 30)
        #expect(dropped == [.close(generation: aAccepted, reason: "the connection dialed from here to b is the one kept")])
        #expect(a.isOpen(aDialed))
        // On b: b's dial is open; a's dial arrives and says hello: b takes it, and its own
        // connection to a goes when the outbox replaces it (a drops it on its side).
        let a0 = ClusterNode(id: "a", controlURL: "ws://a.test:7700/rtc", mediaAddress: "127.0.0.1:40000", capacity: 100)
        var b = PeerConnections(nodeId: "b", timings: Self.timings)
        _ = b.need(a0, at: 0)
        let (bDialed, _) = b.opened(dialedTo: "a", at: 10)
        let (bAccepted, _) = b.opened(dialedTo: nil, at: 20)
        let taken = b.helloReceived(Self.hello(from: "a"), on: bAccepted, at: 30)
        #expect(taken == [.greet(generation: bAccepted, node: "a"), .establish(generation: bAccepted, node: "a", hello: Self.hello(from: "a"))])
        _ = b.established(bAccepted, at: 31)
        // b's own dial closes when a drops it: nothing is lost, since a's connection is ready.
        #expect(b.closed(bDialed, at: 40) == [.lost(generation: bDialed, node: "a", wasReady: false)])
        #expect(b.readyConnection(to: "a") == bAccepted)
    }

    @Test func aDialThatOpensWhileAConnectionIsUpClosesWithoutAWord() {
        var (rules, generation) = Self.connected()
        let (late, actions) = rules.opened(dialedTo: "b", at: 100)
        #expect(actions == [.close(generation: late, reason: "a connection with b is already up")])
        #expect(rules.readyConnection(to: "b") == generation)
    }

    @Test func aRequestFailsOnlyWithTheConnectionThatCarriedIt() {
        var (rules, kept) = Self.connected()
        // A second connection with b (the dropped half of a crossed dial) carries request 2;
        // the kept one carries request 1.
        let (other, _) = rules.opened(dialedTo: nil, at: 10)
        rules.sent(request: 1, on: kept, at: 20)
        rules.sent(request: 2, on: other, at: 20)
        #expect(rules.closed(other, at: 30) == [.failRequest(2)])
        rules.answered(request: 1)
        #expect(rules.advance(to: 10_000).contains(.failRequest(1)) == false)
    }

    @Test func anUnansweredRequestFailsAfterFiveSeconds() {
        var (rules, generation) = Self.connected()
        rules.sent(request: 7, on: generation, at: 100)
        rules.heard(generation, at: 4000)
        #expect(!rules.advance(to: 5099).contains(.failRequest(7)))
        #expect(rules.advance(to: 5100).contains(.failRequest(7)))
    }

    @Test func aHelloOfAnotherVersionOrFromTheWrongNodeClosesTheConnection() {
        var rules = PeerConnections(nodeId: "a", timings: Self.timings)
        let (first, _) = rules.opened(dialedTo: nil, at: 0)
        #expect(
            rules.helloReceived(Self.hello(from: "b", version: 1), on: first, at: 1).first.map {
                if case .close(first, let reason) = $0 { reason.contains("version 1") } else { false }
            } == true)
        let (second, _) = rules.opened(dialedTo: "b", at: 2)
        #expect(
            rules.helloReceived(Self.hello(from: "c"), on: second, at: 3).first.map {
                if case .close(second, let reason) = $0 { reason.contains("not b") } else { false }
            } == true)
        let (third, _) = rules.opened(dialedTo: nil, at: 4)
        _ = rules.helloReceived(Self.hello(from: "c"), on: third, at: 5)
        #expect(
            rules.helloReceived(Self.hello(from: "c"), on: third, at: 6).first.map {
                if case .close(third, _) = $0 { true } else { false }
            } == true, "a second hello")
    }

    @Test func closingAllDialsNothingAgain() {
        var (rules, generation) = Self.connected()
        let actions = rules.closeAll(at: 100)
        #expect(actions == [.close(generation: generation, reason: "shutting down"), .lost(generation: generation, node: "b", wasReady: true)])
        #expect(rules.nextDeadlineMs == nil)
    }
}
