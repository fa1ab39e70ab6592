import Protocol
import RoomEngine
import Testing

/// How forwards end: from the source side (leave, disconnect, kick, dismissal), from the target
/// side (dismissal, kick of the mirror, target token expiry), with visibility, and at scale.
@Suite struct ForwardTeardownScenarioTests {
    /// A publishing in r1 (viewer v1), forwarding into r2 (anchor B2 subscribed explicitly, viewer
    /// v2 auto-subscribed) and r3 (viewer v3 auto-subscribed).
    struct Forwarding {
        var s = Scenario()
        let a: Client, v1: Client, b2: Client, v2: Client, v3: Client
        let sources: [SourceTrack]

        init(r2Grants: TokenGrants? = nil) {
            a = s.enter("A", room: "r1")
            s.publish(a, room: "r1")
            sources = s.addedSources()
            v1 = s.enter("v1", role: .audience, visible: false, autoSubscribe: true, room: "r1")
            b2 = s.enter("B2", room: "r2")
            v2 = s.enter("v2", role: .audience, visible: false, autoSubscribe: true, room: "r2")
            v3 = s.enter("v3", role: .audience, visible: false, autoSubscribe: true, room: "r3")
            s.startForward(a, room: "r1", [.ok("r2", r2Grants), .ok("r3")])
            s.subscribe(b2, to: "A", room: "r2")
        }

        /// The sinks of target-room subscribers (v2, v3, B2) on A's mirrors.
        func mirrorSinks() -> [UInt32] {
            s.addedSinks().filter { [v2.transport, v3.transport, b2.transport].contains($0.transportId) }.map(\.id)
        }
    }

    /// Runs a source-side teardown and checks what every target room saw and that nothing is left.
    func expectSourceTeardown(
        _ f: inout Forwarding, unpublishReason: UnpublishReason, aEvents: [ServerEvent],
        sourceLocation: SourceLocation = #_sourceLocation, _ body: (inout Scenario) -> Void
    ) {
        let mirrorSinks = f.mirrorSinks()
        #expect(mirrorSinks.count == 6, sourceLocation: sourceLocation)
        let mark = f.s.mark
        body(&f.s)
        for (client, room) in [(f.b2, "r2"), (f.v2, "r2"), (f.v3, "r3")] {
            #expect(
                f.s.events(for: client, since: mark) == [.unpublished("A", unpublishReason, room: room), .left("A", .quit, room: room)],
                sourceLocation: sourceLocation)
        }
        #expect(f.s.events(for: f.a, since: mark) == aEvents, sourceLocation: sourceLocation)
        let removed = f.s.removedSinks(since: mark)
        #expect(mirrorSinks.allSatisfy(removed.contains), sourceLocation: sourceLocation)
        #expect(Set(f.s.removedSources(since: mark)) == Set(f.sources.map(\.id)), sourceLocation: sourceLocation)
        let left = f.s.mediaLeft()
        #expect(left.sinks.isEmpty && left.bound.isEmpty && left.sources.isEmpty && left.badBinds.isEmpty, "\(left)", sourceLocation: sourceLocation)
        f.s.expectNoForwardingLeft(sourceLocation: sourceLocation)
        #expect(f.s.engine.forwardedFrom(roomId: "r2", userId: "A") == nil, sourceLocation: sourceLocation)
        #expect(f.s.engine.memberCount(roomId: "r2") == 2 && f.s.engine.memberCount(roomId: "r3") == 1, sourceLocation: sourceLocation)
    }

    @Test func sourceLeavingEndsEveryTarget() {
        var f = Forwarding()
        let a = f.a
        expectSourceTeardown(
            &f, unpublishReason: .clientDisconnected,
            aEvents: [
                .forwardState("r1", "A", [("r2", .idle, 0), ("r3", .idle, 0)]), .exit(.left, code: ErrorCode(0), room: "r1"),
            ]
        ) { s in
            #expect(s.leave(a, room: "r1").value != nil)
        }
    }

    @Test func sourceDisconnectingEndsEveryTarget() {
        var f = Forwarding()
        let a = f.a
        expectSourceTeardown(&f, unpublishReason: .clientDisconnected, aEvents: []) { s in
            #expect(s.disconnect(a).transports == [a.transport])
        }
        #expect(f.s.events(for: f.v1).suffix(2) == [.unpublished("A", .clientDisconnected, room: "r1"), .left("A", .dropped, room: "r1")])
    }

    @Test func sourceKickedEndsEveryTarget() {
        var f = Forwarding()
        expectSourceTeardown(
            &f, unpublishReason: .other,
            aEvents: [
                .forwardState("r1", "A", [("r2", .idle, 0), ("r3", .idle, 0)]), .exit(.kicked, code: .kickedOut, room: "r1"),
            ]
        ) { s in
            #expect(s.kick("A", room: "r1").value != nil)
        }
    }

    @Test func sourceRoomDismissedEndsEveryTarget() {
        var f = Forwarding()
        expectSourceTeardown(
            &f, unpublishReason: .other,
            aEvents: [
                .forwardState("r1", "A", [("r2", .idle, 0), ("r3", .idle, 0)]), .exit(.roomDismissed, code: .roomDismissed, room: "r1"),
            ]
        ) { s in
            #expect(s.dismiss(room: "r1").value != nil)
        }
        #expect(f.s.engine.roomIds == ["r2", "r3"])
    }

    @Test func sourceTokenExpiringEndsEveryTarget() {
        var f = Forwarding()
        let sources = f.sources
        let viewers = [(f.v1, "r1"), (f.b2, "r2"), (f.v2, "r2"), (f.v3, "r3")]
        expectSourceTeardown(
            &f, unpublishReason: .privilegeTokenExpired,
            aEvents: [
                .forwardState("r1", "A", [("r2", .idle, 0), ("r3", .idle, 0)]), .exit(.tokenExpired, code: .tokenExpired, room: "r1"),
            ]
        ) { s in
            // Every token was minted at the start for an hour: refresh all but A's, then let A's run out.
            s.advance(seconds: 3500)
            for (client, room) in viewers { s.updateToken(client, grants: s.grants(validFor: 3600), room: room) }
            s.advance(seconds: 100)
            s.mediaArrives(on: sources)
            s.tick()
        }
    }

    @Test func targetRoomDismissedFailsThatTargetWith1203() {
        var f = Forwarding()
        let mark = f.s.mark
        #expect(f.s.dismiss(room: "r2").value != nil)
        #expect(
            f.s.events(for: f.a, since: mark) == [
                .forwardState("r1", "A", [("r2", .failure, 1203)]), .forwardEvent("r1", "A", [("r2", .dstRoomUpdated)]),
            ])
        #expect(
            f.s.events(for: f.v2, since: mark) == [
                .unpublished("A", .other, room: "r2"), .left("A", .kickedByAdmin, room: "r2"), .exit(.roomDismissed, code: .roomDismissed, room: "r2"),
            ])
        #expect(f.s.events(for: f.v3, since: mark).isEmpty)
        #expect(f.s.engine.roomIds == ["r1", "r3"])
        #expect(f.s.engine.forwardingTotals == (1, 0))
        #expect(f.s.engine.firstKeyframeWatches().map(\.targetRoomId) == ["r3"])
        #expect(f.s.mediaLeft().badBinds.isEmpty)
        #expect(
            f.s.rawEvents(for: f.a.session, since: mark).first
                == .forwardStreamStateChanged(
                    ForwardStreamStateChangedEvent(
                        roomId: "r1", userId: "A",
                        infos: [ForwardStreamStateInfo(roomId: "r2", state: 2, error: 1203, message: "the target room was dismissed")])))
    }

    @Test func dismissingATargetRoomOfOnlyMirrorsRemovesIt() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        let b = s.enter("B", room: "r5")
        s.startForward(a, room: "r1", [.ok("r9")])
        s.startForward(b, room: "r5", [.ok("r9")])
        #expect(s.engine.memberCount(roomId: "r9") == 2)
        let mark = s.mark
        s.dismiss(room: "r9")
        #expect(s.events(for: a, since: mark) == [.forwardState("r1", "A", [("r9", .failure, 1203)]), .forwardEvent("r1", "A", [("r9", .dstRoomUpdated)])])
        #expect(s.events(for: b, since: mark) == [.forwardState("r5", "B", [("r9", .failure, 1203)]), .forwardEvent("r5", "B", [("r9", .dstRoomUpdated)])])
        #expect(s.engine.roomIds == ["r1", "r5"])
        s.expectNoForwardingLeft()
    }

    @Test func adminKickOfTheMirrorFailsThatTargetWith1204() {
        var f = Forwarding()
        let mark = f.s.mark
        #expect(f.s.kick("A", room: "r2").value != nil)
        #expect(
            f.s.events(for: f.a, since: mark) == [
                .forwardState("r1", "A", [("r2", .failure, 1204)]), .forwardEvent("r1", "A", [("r2", .dstRoomUpdated)]),
            ])
        #expect(f.s.events(for: f.b2, since: mark) == [.unpublished("A", .other, room: "r2"), .left("A", .kickedByAdmin, room: "r2")])
        #expect(f.s.events(for: f.v1, since: mark).isEmpty)
        #expect(f.s.engine.forwardingTotals == (1, 0))
        #expect(f.s.engine.isJoined(session: f.a.session, roomId: "r1"))
        let r2Sinks = f.s.addedSinks().filter { [f.v2.transport, f.b2.transport].contains($0.transportId) }.map(\.id)
        #expect(Set(f.s.removedSinks(since: mark)) == Set(r2Sinks))
    }

    @Test func targetTokenExpiryFailsThatTargetWith1202() {
        var f = Forwarding(r2Grants: Scenario().grants(validFor: 60))
        f.s.advance(seconds: 59)
        f.s.mediaArrives(on: f.sources)
        var mark = f.s.mark
        f.s.tick()
        #expect(f.s.log.count == mark)

        f.s.advance(seconds: 1)
        f.s.mediaArrives(on: f.sources)
        mark = f.s.mark
        f.s.tick()
        #expect(
            f.s.events(for: f.a, since: mark) == [
                .forwardState("r1", "A", [("r2", .failure, 1202)]), .forwardEvent("r1", "A", [("r2", .dstRoomUpdated)]),
            ])
        #expect(f.s.events(for: f.b2, since: mark) == [.unpublished("A", .other, room: "r2"), .left("A", .dropped, room: "r2")])
        #expect(f.s.events(for: f.v3, since: mark).isEmpty)
        #expect(f.s.engine.forwardingTotals == (1, 0))
        #expect(f.s.engine.forwardedFrom(roomId: "r3", userId: "A") == "r1")
    }

    @Test func refreshingATargetTokenByUpdateKeepsItAlive() {
        var f = Forwarding(r2Grants: Scenario().grants(validFor: 60))
        f.s.advance(seconds: 30)
        f.s.updateForward(f.a, room: "r1", [.ok("r2", f.s.grants(validFor: 600)), .ok("r3")])
        f.s.advance(seconds: 40)
        f.s.mediaArrives(on: f.sources)
        let mark = f.s.mark
        f.s.tick()
        #expect(f.s.log.count == mark)
        #expect(f.s.engine.forwardingTotals == (2, 0))
    }

    // MARK: Visibility

    @Test func onlyVisibleUsersAreForwarded() {
        var f = Forwarding()
        var mark = f.s.mark
        f.s.setVisible(f.a, false, room: "r1")
        for (client, room) in [(f.b2, "r2"), (f.v2, "r2"), (f.v3, "r3")] {
            #expect(f.s.events(for: client, since: mark) == [.unpublished("A", .unpublish, room: room), .left("A", .switchToInvisible, room: room)])
        }
        #expect(f.s.events(for: f.a, since: mark) == [.forwardEvent("r1", "A", [("", .disconnected)]), .visibility(false, room: "r1")])
        #expect(f.s.engine.forwardingTotals == (2, 0))
        #expect(f.s.engine.forwardedFrom(roomId: "r2", userId: "A") == nil)
        let left = f.s.mediaLeft()
        #expect(left.sinks.isEmpty && left.sources.isEmpty)

        mark = f.s.mark
        f.s.setVisible(f.a, true, room: "r1")
        #expect(f.s.events(for: f.b2, since: mark) == [.mirrorJoined("A", from: "r1", room: "r2"), .published("A", room: "r2")])
        #expect(Array(f.s.events(for: f.v3, since: mark).prefix(2)) == [.mirrorJoined("A", from: "r1", room: "r3"), .published("A", room: "r3")])
        #expect(f.s.events(for: f.a, since: mark) == [.visibility(true, room: "r1"), .forwardEvent("r1", "A", [("", .connected)])])
        let fresh = f.s.addedSources(since: mark)
        #expect(f.s.binds(since: mark).filter { fresh.map(\.id).contains($0.source) }.count == 4 + 2)  // v2, v3, v1
    }

    @Test func forwardStartedWhileInvisibleAppearsWhenVisible() {
        var s = Scenario()
        let a = s.enter("A", visible: false, room: "r1")
        let b = s.enter("B", room: "r2")
        var mark = s.mark
        #expect(s.startForward(a, room: "r1", [.ok("r2")]).value?.infos.map(\.state) == [1])
        #expect(s.events(for: b, since: mark).isEmpty)
        mark = s.mark
        s.setVisible(a, true, room: "r1")
        #expect(s.events(for: b, since: mark) == [.mirrorJoined("A", from: "r1", room: "r2")])
        mark = s.mark
        s.publish(a, room: "r1")
        #expect(s.events(for: b, since: mark) == [.published("A", room: "r2")])
    }

    // MARK: Scale

    @Test func fiftyForwardsIntoOneSharedRoomAreTornDownBySourcesLeaving() {
        var s = Scenario()
        let viewer = s.enter("viewer", role: .audience, visible: false, autoSubscribe: true, room: "hub")
        var anchors: [Client] = []
        for i in 0..<50 {
            let anchor = s.enter("a\(i)", room: "s\(i)")
            s.publish(anchor, room: "s\(i)")
            #expect(s.startForward(anchor, room: "s\(i)", [.ok("hub")]).value?.infos.map(\.state) == [1])
            anchors.append(anchor)
        }
        #expect(s.engine.memberCount(roomId: "hub") == 51)
        #expect(s.engine.forwardingTotals == (50, 0))
        #expect(s.snapshot(room: "hub", user: "viewer")?.subscriptions.count == 50)
        #expect(s.engine.firstKeyframeWatches().allSatisfy { $0.sinkIds.count == 1 })
        // A 51st publisher would exceed the room's publisher limit: refused with 1203.
        let extra = s.enter("a50", room: "s50")
        s.publish(extra, room: "s50")
        #expect(s.startForward(extra, room: "s50", [.ok("hub")]).value?.infos.map(\.error) == [1203])
        s.leave(extra, room: "s50")

        for (i, anchor) in anchors.enumerated() {
            let mark = s.mark
            s.leave(anchor, room: "s\(i)")
            #expect(s.events(for: viewer, since: mark) == [.unpublished("a\(i)", .clientDisconnected, room: "hub"), .left("a\(i)", .quit, room: "hub")])
        }
        #expect(s.engine.roomIds == ["hub"])
        #expect(s.engine.memberCount(roomId: "hub") == 1)
        s.expectNoForwardingLeft()
        let left = s.mediaLeft()
        #expect(left.sinks.isEmpty && left.bound.isEmpty && left.sources.isEmpty && left.badBinds.isEmpty)
        #expect(s.engine.totals.subscriptions == 0)
    }

    @Test func fiftyAnchorsForwardingIntoEachOthersRoomsLeaveNothingBehind() {
        var s = Scenario()
        var anchors: [Client] = []
        for i in 0..<50 {
            let anchor = s.enter("a\(i)", autoSubscribe: true, room: "s\(i)")
            s.publish(anchor, room: "s\(i)")
            anchors.append(anchor)
        }
        for (i, anchor) in anchors.enumerated() {
            let targets = [1, 7, 23].map { Target.ok("s\((i + $0) % 50)") }
            #expect(s.startForward(anchor, room: "s\(i)", targets).value?.infos.map(\.state) == [1, 1, 1])
        }
        #expect(s.engine.forwardingTotals == (150, 0))
        #expect((0..<50).allSatisfy { s.engine.memberCount(roomId: "s\($0)") == 4 })
        #expect(s.engine.totals.subscriptions == 150)
        // Half leave, half disconnect; rooms of only mirrors disappear on the way.
        for (i, anchor) in anchors.enumerated() {
            if i.isMultiple(of: 2) { s.leave(anchor, room: "s\(i)") } else { s.disconnect(anchor) }
            #expect(s.engine.memberCount(roomId: "s\(i)").map { $0 > 0 } ?? true)
            #expect(!(s.engine.snapshot(roomId: "s\(i)") ?? []).contains { $0.userId == "a\(i)" })
        }
        #expect(s.engine.roomIds == [])
        s.expectNoForwardingLeft()
        let left = s.mediaLeft()
        #expect(left.sinks.isEmpty && left.bound.isEmpty && left.sources.isEmpty && left.badBinds.isEmpty)
        #expect(s.engine.totals == (0, 0, 0, 0))
    }
}
