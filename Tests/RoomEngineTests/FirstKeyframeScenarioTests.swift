import Protocol
import RoomEngine
import Testing

/// First-keyframe watches ("time to watchable") for forwards and links.
@Suite struct FirstKeyframeScenarioTests {
    @Test func aForwardTargetIsWatchedUntilItsFirstKeyframeArrives() throws {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.publish(a, room: "r1")
        let started = s.now
        s.startForward(a, room: "r1", [.ok("r2")])
        var watches = s.engine.firstKeyframeWatches()
        #expect(watches.count == 1)
        let watch = try #require(watches.first)
        #expect(watch.session == a.session && watch.sourceRoomId == "r1" && watch.userId == "A" && watch.targetRoomId == "r2")
        #expect(watch.startedAt == started && watch.via == "forward" && watch.sinkIds == [] && watch.linkId == nil)

        s.advance(seconds: 0.1)
        let viewer = s.enter("viewer", role: .audience, visible: false, autoSubscribe: true, room: "r2")
        let videoSink = try #require(s.addedSinks().first { $0.kind == .video && $0.transportId == viewer.transport })
        watches = s.engine.firstKeyframeWatches()
        #expect(watches.map(\.sinkIds) == [[videoSink.id]])

        s.advance(seconds: 0.25)
        let mark = s.mark
        let actions = s.keyframeDelivered(watches[0])
        #expect(
            actions == [
                .event(
                    a.session,
                    .forwardStreamFirstKeyframe(ForwardFirstKeyframeEvent(roomId: "r1", userId: "A", targetRoomId: "r2", elapsedMs: 350, via: "forward"))),
                .domain(.firstKeyframe(watches[0], elapsedMs: 350)),
            ])
        #expect(s.events(for: a, since: mark).count == 1)
        #expect(s.engine.firstKeyframeWatches().isEmpty)
        // Reported once: a second delivery of the same watch says nothing.
        s.advance(seconds: 1)
        #expect(s.keyframeDelivered(watches[0]).isEmpty)
        #expect(s.engine.forwardingTotals == (1, 0))
    }

    @Test func resumingAForwardStartsANewWatch() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.startForward(a, room: "r1", [.ok("r2"), .ok("r3")])
        s.keyframeDelivered(s.engine.firstKeyframeWatches()[0])
        #expect(s.engine.firstKeyframeWatches().map(\.targetRoomId) == ["r3"])
        s.pauseForward(a, room: "r1")
        #expect(s.engine.firstKeyframeWatches().isEmpty)
        s.advance(seconds: 3)
        s.pauseForward(a, room: "r1", false)
        #expect(s.engine.firstKeyframeWatches().map(\.targetRoomId) == ["r2", "r3"])
        #expect(s.engine.firstKeyframeWatches().map(\.startedAt) == [s.now, s.now])
    }

    @Test func aWatchForATargetThatEndedDeliversNothing() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.startForward(a, room: "r1", [.ok("r2")])
        let watch = s.engine.firstKeyframeWatches()[0]
        s.stopForward(a, room: "r1")
        #expect(s.keyframeDelivered(watch).isEmpty)
    }

    @Test func aLinkHasOneWatchPerDirection() throws {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.publish(a, room: "r1")
        let b = s.enter("B", room: "r2")
        s.publish(b, room: "r2")
        let v1 = s.enter("v1", role: .audience, visible: false, autoSubscribe: true, room: "r1")
        let v2 = s.enter("v2", role: .audience, visible: false, autoSubscribe: true, room: "r2")
        let mark = s.mark
        let started = s.now
        s.connectOtherRoom(a, to: "r2", "B")
        let sinks = s.addedSinks(since: mark).filter { $0.kind == .video }
        let v1Video = try #require(sinks.first { $0.transportId == v1.transport })
        let v2Video = try #require(sinks.first { $0.transportId == v2.transport })

        let watches = s.engine.firstKeyframeWatches()
        #expect(watches.count == 2)
        #expect(watches.map(\.via) == ["link", "link"])
        #expect(Set(watches.compactMap(\.linkId)).count == 1)
        let aToB = try #require(watches.first { $0.userId == "A" })
        let bToA = try #require(watches.first { $0.userId == "B" })
        #expect(aToB.session == a.session && aToB.sourceRoomId == "r1" && aToB.targetRoomId == "r2" && aToB.sinkIds == [v2Video.id])
        #expect(bToA.session == b.session && bToA.sourceRoomId == "r2" && bToA.targetRoomId == "r1" && bToA.sinkIds == [v1Video.id])
        #expect(watches.allSatisfy { $0.startedAt == started })

        s.advance(seconds: 0.2)
        #expect(
            s.keyframeDelivered(aToB) == [
                .event(
                    a.session,
                    .forwardStreamFirstKeyframe(ForwardFirstKeyframeEvent(roomId: "r1", userId: "A", targetRoomId: "r2", elapsedMs: 200, via: "link"))),
                .domain(.firstKeyframe(aToB, elapsedMs: 200)),
            ])
        #expect(s.engine.firstKeyframeWatches() == [bToA])
        #expect(s.keyframeDelivered(aToB).isEmpty)
        s.advance(seconds: 0.1)
        #expect(
            s.keyframeDelivered(bToA) == [
                .event(
                    b.session,
                    .forwardStreamFirstKeyframe(ForwardFirstKeyframeEvent(roomId: "r2", userId: "B", targetRoomId: "r1", elapsedMs: 300, via: "link"))),
                .domain(.firstKeyframe(bToA, elapsedMs: 300)),
            ])
        #expect(s.engine.firstKeyframeWatches().isEmpty)
        s.disconnectOtherRoom(a)
        #expect(s.keyframeDelivered(bToA).isEmpty)
    }
}
