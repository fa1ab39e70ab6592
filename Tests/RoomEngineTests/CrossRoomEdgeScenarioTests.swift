import Protocol
import RoomEngine
import Testing

/// Edge cases of the cross-room features that once went wrong (see each test).
@Suite struct CrossRoomEdgeScenarioTests {
    /// An update whose refreshed token fails for the only running target, and that adds another,
    /// used to drop the forward mid-update and then crash adding the new target.
    @Test func updateFailingTheOnlyTargetWhileAddingAnother() throws {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.publish(a, room: "r1")
        let v3 = s.enter("v3", role: .audience, visible: false, room: "r3")
        s.startForward(a, room: "r1", [.ok("r2")])
        let mark = s.mark
        let result = try #require(s.updateForward(a, room: "r1", [.bad("r2"), .ok("r3")]).value)
        #expect(result.infos.map(\.roomId) == ["r2", "r3"])
        #expect(result.infos.map(\.state) == [2, 1])
        #expect(result.infos.map(\.error) == [1202, 0])
        #expect(
            s.events(for: a, since: mark) == [
                .forwardState("r1", "A", [("r2", .failure, 1202), ("r3", .success, 0)]),
                .forwardEvent("r1", "A", [("r3", .dstRoomUpdated)]),
            ])
        #expect(s.events(for: v3, since: mark) == [.mirrorJoined("A", from: "r1", room: "r3"), .published("A", room: "r3")])
        #expect(s.engine.forwardingTotals == (1, 0))
        #expect(s.engine.roomIds == ["r1", "r3"])
    }

    /// The same userId in two rooms may not forward both into one target, even while one of the
    /// forwards is paused (which one the target room shows would otherwise be arbitrary).
    @Test func twoSourceRoomsOfOneUserCannotShareATarget() throws {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.join(a, room: "r4")
        s.publish(a, room: "r1")
        s.startForward(a, room: "r1", [.ok("r9")])
        // While r1's mirror is in r9.
        #expect(s.startForward(a, room: "r4", [.ok("r9")]).value?.infos.map(\.error) == [1201])
        // While r1's forward is paused (no mirror in r9).
        s.pauseForward(a, room: "r1")
        #expect(s.startForward(a, room: "r4", [.ok("r9")]).value?.infos.map(\.error) == [1201])
        s.pauseForward(a, room: "r1", false)
        #expect(s.engine.forwardedFrom(roomId: "r9", userId: "A") == "r1")
        #expect(s.engine.forwardingTotals == (1, 0))
        // Once r1 stops, r4 may.
        s.stopForward(a, room: "r1")
        #expect(s.startForward(a, room: "r4", [.ok("r9")]).value?.infos.map(\.error) == [0])
        #expect(s.engine.forwardedFrom(roomId: "r9", userId: "A") == "r4")
    }

    /// A paused forward still claims its target room: linking into that room is refused, as
    /// forwarding into a linked room is.
    @Test func aPausedForwardAndALinkCannotShareATargetRoom() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        let b = s.enter("B", room: "r2")
        s.startForward(a, room: "r1", [.ok("r2")])
        #expect(s.connectOtherRoom(a, to: "r2", "B").error?.code == .linkInvalidParameter)
        s.pauseForward(a, room: "r1")
        #expect(s.connectOtherRoom(a, to: "r2", "B").error?.code == .linkInvalidParameter)
        // B forwarding into A's room blocks B linking with A as well (B's mirror would be A's room's).
        s.stopForward(a, room: "r1")
        s.startForward(b, room: "r2", [.ok("r1")])
        s.pauseForward(b, room: "r2")
        #expect(s.connectOtherRoom(a, to: "r2", "B").error?.code == .linkInvalidParameter)
        s.stopForward(b, room: "r2")
        #expect(s.connectOtherRoom(a, to: "r2", "B").value != nil)
        // And the other way round: a linked room is not a forward target.
        #expect(s.startForward(a, room: "r1", [.ok("r2")]).value?.infos.map(\.error) == [1201])
        #expect(s.engine.forwardingTotals == (0, 1))
    }

    /// An invitation that failed because a party left is kept (AlreadyEnded) for the usual minute,
    /// not forgotten at the next tick.
    @Test func anInvitationEndedByALeaveIsRememberedForAMinute() throws {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        let b = s.enter("B", room: "r2")
        let id = try #require(s.invite(a, to: "r2", "B", timeoutSeconds: 0).value?.inviteId)
        s.leave(b, room: "r2")
        s.advance(seconds: 1)
        s.tick()
        #expect(s.cancel(a, id).error?.code == .invitationAlreadyEnded)
        s.advance(seconds: 59)
        s.tick()
        #expect(s.cancel(a, id).error?.code == .invitationAlreadyEnded)
        s.advance(seconds: 2)
        s.tick()
        #expect(s.cancel(a, id).error?.code == .invitationNotStarted)
    }

    /// Stopping a forward reaches targets in the order they were added, and a target room that
    /// has only the mirror disappears with it.
    @Test func stoppingRemovesRoomsOfOnlyMirrors() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.publish(a, room: "r1")
        s.startForward(a, room: "r1", [.ok("r3"), .ok("r2")])
        #expect(s.engine.roomIds == ["r1", "r2", "r3"])
        #expect(s.stopForward(a, room: "r1").value?.infos.map(\.roomId) == ["r3", "r2"])
        #expect(s.engine.roomIds == ["r1"])
        #expect(s.mediaLeft().sinks.isEmpty)
    }

    /// A mirror cannot be linked with, and a user already forwarded into a room cannot be invited from it.
    @Test func mirrorsAreNotLinkOrInvitationPeers() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        let c = s.enter("C", room: "r3")
        s.startForward(a, room: "r1", [.ok("r2")])
        #expect(s.connectOtherRoom(c, to: "r2", "A").error?.code == .targetUserNotFound)
        #expect(s.invite(c, to: "r2", "A").error?.code == .targetUserNotFound)
    }

    /// A duplicate login of the forwarder replaces it: the old connection hears its forward end
    /// (Idle) before it is kicked, targets see the mirror go, and the new connection forwards nothing.
    @Test func duplicateLoginOfTheForwarderEndsItsForward() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.publish(a, room: "r1")
        let b = s.enter("B", room: "r2")
        s.startForward(a, room: "r1", [.ok("r2")])
        let again = s.connect("A")
        let mark = s.mark
        s.join(again, room: "r1")
        #expect(
            s.events(for: a, since: mark) == [
                .forwardState("r1", "A", [("r2", .idle, 0)]), .exit(.kicked, code: .duplicateLogin, room: "r1"),
            ])
        #expect(s.events(for: b, since: mark) == [.unpublished("A", .clientDisconnected, room: "r2"), .left("A", .quit, room: "r2")])
        s.expectNoForwardingLeft()
        #expect(s.stopForward(again, room: "r1").error?.code == .forwardNotStarted)
    }

    /// Ending a link from the target side: an admin kick of the mirror, a real user with the
    /// peer's userId joining, or the room's dismissal ends the link for both anchors, and the
    /// room sees the mirror leave with the same reason a forward's mirror would get.
    @Test func targetSideEventsEndALink() {
        for (how, reason) in [("kick", "kicked"), ("join", "interrupted"), ("dismiss", "roomDismissed")] {
            var s = Scenario()
            let a = s.enter("A", room: "r1")
            let b = s.enter("B", room: "r2")
            let watcher = s.enter("w", role: .audience, room: "r2")
            s.connectOtherRoom(a, to: "r2", "B")
            let mark = s.mark
            switch how {
            case "kick": s.kick("A", room: "r2")
            case "join": s.join(s.connect("A"), room: "r2")
            default: s.dismiss(room: "r2")
            }
            #expect(s.events(for: a, since: mark).last == .disconnected("r1", peerRoom: "r2", "B", reason: reason), "\(how)")
            #expect(s.events(for: b, since: mark).contains(.disconnected("r2", peerRoom: "r1", "A", reason: reason)), "\(how)")
            let leave: LeaveReason = how == "join" ? .dropped : .kickedByAdmin  // as for a forward's mirror
            #expect(Array(s.events(for: watcher, since: mark).prefix(1)) == [.left("A", leave, room: "r2")], "\(how)")
            #expect(s.engine.forwardingTotals == (0, 0))
            #expect(s.engine.forwardedFrom(roomId: "r1", userId: "B") == nil)
        }
    }

    /// A linked anchor turning invisible disappears from the other room and comes back; the link stays.
    @Test func aLinkedAnchorTurningInvisibleHidesItsMirror() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.publish(a, room: "r1")
        let b = s.enter("B", room: "r2")
        s.connectOtherRoom(a, to: "r2", "B")
        var mark = s.mark
        s.setVisible(a, false, room: "r1")
        #expect(s.events(for: b, since: mark) == [.unpublished("A", .unpublish, room: "r2"), .left("A", .switchToInvisible, room: "r2")])
        #expect(s.engine.forwardingTotals == (0, 1))
        mark = s.mark
        s.setVisible(a, true, room: "r1")
        #expect(s.events(for: b, since: mark) == [.mirrorJoined("A", from: "r1", room: "r2"), .published("A", room: "r2")])
    }

    /// accept with autoLink when the link can no longer be made: the invitation is accepted, and
    /// both anchors hear onConnectOtherRoom with the error.
    @Test func acceptWithAutoLinkThatCannotLink() throws {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        let b = s.enter("B", room: "r2")
        let id = try #require(s.invite(a, to: "r2", "B", autoLink: true).value?.inviteId)
        s.switchRole(a, to: .audience, room: "r1")
        let mark = s.mark
        #expect(s.accept(b, id).value != nil)
        #expect(
            s.events(for: a, since: mark) == [
                .invitation(id, "caller", .accepted, room: "r1", peerRoom: "r2", "B"), .connected("r1", peerRoom: "r2", "B", errorCode: -3330),
            ])
        #expect(
            s.events(for: b, since: mark) == [
                .invitation(id, "callee", .accepted, room: "r2", peerRoom: "r1", "A"), .connected("r2", peerRoom: "r1", "A", errorCode: -3330),
            ])
        #expect(s.engine.forwardingTotals == (0, 0))
    }

    /// A forwarder's publishing transport closing unpublishes (Other) in every target too.
    @Test func closingThePublishingTransportUnpublishesInTargets() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.publish(a, room: "r1")
        let v2 = s.enter("v2", role: .audience, visible: false, autoSubscribe: true, room: "r2")
        s.startForward(a, room: "r1", [.ok("r2")])
        let mark = s.mark
        s.closeTransport(a.session, a.transport)
        #expect(s.events(for: v2, since: mark) == [.unpublished("A", .other, room: "r2")])
        let left = s.mediaLeft()
        #expect(left.sources.isEmpty && left.bound.isEmpty && left.badBinds.isEmpty)
        #expect(s.engine.forwardedFrom(roomId: "r2", userId: "A") == "r1")
    }

    /// A target added by update is watched from the update's time.
    @Test func aTargetAddedByUpdateIsWatchedFromThen() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.startForward(a, room: "r1", [.ok("r2")])
        s.advance(seconds: 4)
        s.updateForward(a, room: "r1", [.ok("r2"), .ok("r3")])
        #expect(s.engine.firstKeyframeWatches().map(\.startedAt) == [Scenario.start, s.now])
    }
}
