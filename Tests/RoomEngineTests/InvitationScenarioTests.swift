import Protocol
import RoomEngine
import Testing

/// PK invitations: invite, accept (with and without autoLink), reject, cancel, timeouts, busy
/// rejection, misuse errors, and a party leaving.
@Suite struct InvitationScenarioTests {
    struct Anchors {
        var s: Scenario
        let a: Client, b: Client, c: Client

        init(limits: RoomLimits = RoomLimits()) {
            s = Scenario(limits: limits)
            a = s.enter("A", room: "r1")
            b = s.enter("B", room: "r2")
            c = s.enter("C", room: "r3")
        }

        /// A's side of an invitation to B, and B's side.
        func aSide(_ id: String, _ state: InvitationState, reason: String? = nil, payload: String? = nil) -> ServerEvent {
            .invitation(id, "caller", state, room: "r1", peerRoom: "r2", "B", reason: reason, payload: payload)
        }

        func bSide(_ id: String, _ state: InvitationState, reason: String? = nil, payload: String? = nil) -> ServerEvent {
            .invitation(id, "callee", state, room: "r2", peerRoom: "r1", "A", reason: reason, payload: payload)
        }
    }

    @Test func inviteReachesTheCalleeAndTellsTheCaller() throws {
        var t = Anchors()
        let mark = t.s.mark
        let id = try #require(t.s.invite(t.a, to: "r2", "B", payload: "{\"mode\":\"score\"}").value?.inviteId)
        #expect(
            t.s.events(for: t.b, since: mark) == [
                .invitationReceived(
                    InvitationReceivedEvent(
                        inviteId: id, roomId: "r2", fromRoomId: "r1", fromUserId: "A", payload: "{\"mode\":\"score\"}", timeoutSeconds: 30, autoLink: false))
            ])
        #expect(t.s.events(for: t.a, since: mark) == [t.aSide(id, .receivedByRemote)])
        #expect(t.s.events(for: t.c, since: mark).isEmpty)
        #expect(InvitationState.receivedByRemote.rawValue == 2)
    }

    @Test func acceptWithAutoLinkCreatesTheLinkInTheSameCall() throws {
        var t = Anchors()
        let id = try #require(t.s.invite(t.a, to: "r2", "B", autoLink: true).value?.inviteId)
        let mark = t.s.mark
        #expect(t.s.accept(t.b, id, payload: "ok").value != nil)
        #expect(
            t.s.events(for: t.a, since: mark) == [
                t.aSide(id, .accepted, payload: "ok"), .mirrorJoined("B", from: "r2", room: "r1"), .connected("r1", peerRoom: "r2", "B"),
            ])
        #expect(
            t.s.events(for: t.b, since: mark) == [
                t.bSide(id, .accepted, payload: "ok"), .mirrorJoined("A", from: "r1", room: "r2"), .connected("r2", peerRoom: "r1", "A"),
            ])
        #expect(t.s.engine.forwardingTotals == (0, 1))
    }

    @Test func acceptWithoutAutoLinkOnlyChangesState() throws {
        var t = Anchors()
        let id = try #require(t.s.invite(t.a, to: "r2", "B").value?.inviteId)
        let mark = t.s.mark
        t.s.accept(t.b, id)
        #expect(t.s.events(for: t.a, since: mark) == [t.aSide(id, .accepted)])
        #expect(t.s.events(for: t.b, since: mark) == [t.bSide(id, .accepted)])
        #expect(t.s.engine.forwardingTotals == (0, 0))
        #expect(t.s.media(since: mark).isEmpty)
    }

    @Test func rejectBusyOrActive() throws {
        var t = Anchors()
        for reason in ["busy", "active"] {
            let id = try #require(t.s.invite(t.a, to: "r2", "B", autoLink: true).value?.inviteId)
            let mark = t.s.mark
            #expect(t.s.reject(t.b, id, reason: reason, payload: "later").value != nil)
            #expect(t.s.events(for: t.a, since: mark) == [t.aSide(id, .refused, reason: reason, payload: "later")])
            #expect(t.s.events(for: t.b, since: mark) == [t.bSide(id, .refused, reason: reason, payload: "later")])
        }
        let id = try #require(t.s.invite(t.a, to: "r2", "B").value?.inviteId)
        #expect(t.s.reject(t.b, id, reason: "bored").error?.code == .invitationInvalidArgument)
        let mark = t.s.mark
        t.s.reject(t.b, id)
        #expect(t.s.events(for: t.a, since: mark) == [t.aSide(id, .refused, reason: "active")])
        #expect(t.s.engine.forwardingTotals == (0, 0))
    }

    @Test func cancelTellsBothSides() throws {
        var t = Anchors()
        let id = try #require(t.s.invite(t.a, to: "r2", "B").value?.inviteId)
        let mark = t.s.mark
        #expect(t.s.cancel(t.a, id).value != nil)
        #expect(t.s.events(for: t.a, since: mark) == [t.aSide(id, .canceled)])
        #expect(t.s.events(for: t.b, since: mark) == [t.bSide(id, .canceled)])
        #expect(t.s.accept(t.b, id).error?.code == .invitationAlreadyEnded)
    }

    @Test func bothSidesHearATimeout() throws {
        var t = Anchors()
        let id = try #require(t.s.invite(t.a, to: "r2", "B", timeoutSeconds: 10).value?.inviteId)
        t.s.advance(seconds: 9.999)
        var mark = t.s.mark
        t.s.tick()
        #expect(t.s.log.count == mark)
        t.s.advance(seconds: 0.001)
        mark = t.s.mark
        t.s.tick()
        #expect(t.s.events(for: t.a, since: mark) == [t.aSide(id, .failure, reason: "timeout")])
        #expect(t.s.events(for: t.b, since: mark) == [t.bSide(id, .failure, reason: "timeout")])
        #expect(t.s.accept(t.b, id).error?.code == .invitationAlreadyEnded)
        // Ended invitations are forgotten after a minute.
        t.s.advance(seconds: 61)
        t.s.tick()
        #expect(t.s.accept(t.b, id).error?.code == .invitationNotStarted)
    }

    @Test func theDefaultTimeoutIsThirtySecondsAndZeroMeansNone() throws {
        var t = Anchors()
        let defaulted = try #require(t.s.invite(t.a, to: "r2", "B").value?.inviteId)
        let endless = try #require(t.s.invite(t.a, to: "r3", "C", timeoutSeconds: 0).value?.inviteId)
        #expect(
            t.s.events(for: t.c).last
                == .invitationReceived(
                    InvitationReceivedEvent(
                        inviteId: endless, roomId: "r3", fromRoomId: "r1", fromUserId: "A", payload: nil, timeoutSeconds: 0, autoLink: false)))
        t.s.advance(seconds: 30)
        var mark = t.s.mark
        t.s.tick()
        #expect(t.s.events(for: t.b, since: mark) == [t.bSide(defaulted, .failure, reason: "timeout")])
        #expect(t.s.events(for: t.c, since: mark).isEmpty)
        t.s.advance(seconds: 3000)
        mark = t.s.mark
        t.s.tick()
        #expect(t.s.events(for: t.c, since: mark).isEmpty)
        #expect(t.s.accept(t.c, endless).value != nil)
        // Out-of-range timeouts are invalid.
        #expect(t.s.invite(t.a, to: "r2", "B", timeoutSeconds: -1).error?.code == .invitationInvalidArgument)
        #expect(t.s.invite(t.a, to: "r2", "B", timeoutSeconds: 3601).error?.code == .invitationInvalidArgument)
    }

    @Test func aLinkedCalleeRefusesAutomaticallyWithBusy() throws {
        var t = Anchors()
        t.s.connectOtherRoom(t.a, to: "r2", "B")
        let mark = t.s.mark
        let id = try #require(t.s.invite(t.c, to: "r2", "B").value?.inviteId)
        #expect(t.s.events(for: t.c, since: mark) == [.invitation(id, "caller", .refused, room: "r3", peerRoom: "r2", "B", reason: "busy")])
        #expect(t.s.events(for: t.b, since: mark).isEmpty)
        #expect(t.s.cancel(t.c, id).error?.code == .invitationAlreadyEnded)
    }

    @Test func misuseErrors() throws {
        var t = Anchors()
        // Payload over 8 KiB (bytes, not characters).
        let big = String(repeating: "é", count: 4097)
        #expect(t.s.invite(t.a, to: "r2", "B", payload: big).error?.code == .invitationInvalidArgument)
        #expect(t.s.invite(t.a, to: "r2", "B", payload: String(repeating: "x", count: 8192)).value != nil)
        // A second pending invitation to the same callee.
        #expect(t.s.invite(t.a, to: "r2", "B").error?.code == .invitationAlreadySent)
        let id = "inv-1"
        // Unknown id, or the wrong side.
        #expect(t.s.accept(t.b, "inv-99").error?.code == .invitationNotStarted)
        #expect(t.s.accept(t.a, id).error?.code == .invitationNotStarted)
        #expect(t.s.cancel(t.b, id).error?.code == .invitationNotStarted)
        #expect(t.s.accept(t.c, id).error?.code == .invitationNotStarted)
        // Accept twice, cancel after acceptance.
        #expect(t.s.accept(t.b, id).value != nil)
        let mark = t.s.mark
        #expect(t.s.accept(t.b, id).error?.code == .invitationAlreadyAccepted)
        #expect(t.s.cancel(t.a, id).error?.code == .invitationAlreadyAccepted)
        #expect(t.s.log.count == mark)
        // Cancel after the end.
        let second = try #require(t.s.invite(t.a, to: "r2", "B").value?.inviteId)
        t.s.reject(t.b, second)
        #expect(t.s.cancel(t.a, second).error?.code == .invitationAlreadyEnded)
        #expect(t.s.reject(t.b, second).error?.code == .invitationAlreadyEnded)
        // Inviting into one's own room, an audience caller, a missing room or callee.
        _ = t.s.enter("A2", room: "r1")
        let fan = t.s.enter("fan", role: .audience, room: "r1")
        #expect(t.s.invite(t.a, to: "r1", "A2").error?.code == .invitationInvalidArgument)
        #expect(t.s.invite(fan, to: "r2", "B").error?.code == .callerIsAudience)
        #expect(t.s.invite(t.a, to: "r9", "B").error?.code == .targetRoomNotFound)
        #expect(t.s.invite(t.a, to: "r2", "nobody").error?.code == .targetUserNotFound)
        #expect(
            [1, 2, 3, 4, 5]
                == [ErrorCode.invitationInvalidArgument, .invitationNotStarted, .invitationAlreadyEnded, .invitationAlreadyAccepted, .invitationAlreadySent]
                .map(\.rawValue))
    }

    @Test func aCallerMayHaveSeveralInvitationsOut() throws {
        var t = Anchors()
        let toB = try #require(t.s.invite(t.a, to: "r2", "B").value?.inviteId)
        let toC = try #require(t.s.invite(t.a, to: "r3", "C").value?.inviteId)
        #expect(toB != toC)
        t.s.accept(t.c, toC)
        t.s.reject(t.b, toB)
        #expect(
            t.s.events(for: t.a).compactMap { if case .invitationStateChanged(let e) = $0 { "\(e.inviteId):\(e.state)" } else { nil } } == [
                "\(toB):2", "\(toC):2", "\(toC):3", "\(toB):4",
            ])
    }

    @Test func aPartyLeavingFailsThePendingInvitationForTheOther() throws {
        var t = Anchors()
        let fromA = try #require(t.s.invite(t.a, to: "r2", "B").value?.inviteId)
        let fromC = try #require(t.s.invite(t.c, to: "r2", "B").value?.inviteId)
        var mark = t.s.mark
        t.s.leave(t.a, room: "r1")
        #expect(t.s.events(for: t.b, since: mark) == [t.bSide(fromA, .failure, reason: "peerLeft")])
        #expect(t.s.events(for: t.c, since: mark).isEmpty)

        mark = t.s.mark
        t.s.disconnect(t.b)
        #expect(t.s.events(for: t.c, since: mark) == [.invitation(fromC, "caller", .failure, room: "r3", peerRoom: "r2", "B", reason: "peerLeft")])
        #expect(t.s.cancel(t.c, fromC).error?.code == .invitationAlreadyEnded)
    }
}
