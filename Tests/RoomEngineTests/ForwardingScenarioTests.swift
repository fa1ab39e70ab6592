import Protocol
import RoomEngine
import Testing

/// Cross-room forwarding (Volcengine startForwardStreamToRooms): what target rooms see, how
/// subscribers there are fed, and how later publishing follows the forward.
@Suite struct ForwardingScenarioTests {
    /// Anchor A publishing in r1 with an auto-subscribing viewer; an anchor and an
    /// auto-subscribing viewer in r2; an auto-subscribing viewer in r3.
    struct Rooms {
        var s = Scenario()
        let a: Client, v1: Client, b2: Client, v2: Client, v3: Client
        let sources: [SourceTrack]

        init() {
            a = s.enter("A", room: "r1")
            s.publish(a, room: "r1")
            sources = s.addedSources()
            v1 = s.enter("v1", role: .audience, visible: false, autoSubscribe: true, room: "r1")
            b2 = s.enter("B2", room: "r2")
            v2 = s.enter("v2", role: .audience, visible: false, autoSubscribe: true, room: "r2")
            v3 = s.enter("v3", role: .audience, visible: false, autoSubscribe: true, room: "r3")
        }
    }

    @Test func forwardIntoTwoRoomsShowsTheAnchorThereAndFeedsSubscribersFromTheSource() throws {
        var r = Rooms()
        let v1Binds = r.s.binds()
        #expect(v1Binds.map(\.source) == r.sources.map(\.id))
        let v1Sinks = r.s.addedSinks()
        let mark = r.s.mark

        let result = try #require(r.s.startForward(r.a, room: "r1", [.ok("r2"), .ok("r3")]).value)

        #expect(
            result
                == ForwardStreamResult(
                    roomId: "r1",
                    infos: [
                        ForwardStreamStateInfo(roomId: "r2", state: 1, error: 0), ForwardStreamStateInfo(roomId: "r3", state: 1, error: 0),
                    ]))
        #expect(r.s.events(for: r.a, since: mark) == [.forwardState("r1", "A", [("r2", .success, 0), ("r3", .success, 0)])])
        #expect(r.s.events(for: r.b2, since: mark) == [.mirrorJoined("A", from: "r1", room: "r2"), .published("A", room: "r2")])
        #expect(r.s.events(for: r.v1, since: mark).isEmpty)
        for (viewer, room) in [(r.v2, "r2"), (r.v3, "r3")] {
            let events = r.s.events(for: viewer, since: mark)
            #expect(Array(events.prefix(2)) == [.mirrorJoined("A", from: "r1", room: room), .published("A", room: room)])
            let subscribed = try #require(events.last?.subscribed)
            #expect(events.count == 3)
            #expect(subscribed.roomId == room && subscribed.userId == "A" && subscribed.state == .success)
            #expect(subscribed.tracks.map(\.kind) == [.audio, .video])
            #expect(subscribed.tracks.map(\.transportId) == [viewer.transport, viewer.transport])
        }
        // Target-room sinks are new (own output SSRCs) and bound to A's *source* tracks, the same
        // sources room 1's subscriber is bound to (each bind asks for a keyframe in the media plane).
        let sinks = r.s.addedSinks(since: mark)
        #expect(sinks.count == 4)
        #expect(Set(sinks.map(\.outputSSRC)).count == 4)
        #expect(Set(sinks.map(\.outputSSRC)).isDisjoint(with: v1Sinks.map(\.outputSSRC)))
        #expect(Set(sinks.map(\.outputSSRC)).isDisjoint(with: r.a.tracks().map(\.ssrc)))
        #expect(
            r.s.media(since: mark) == [
                .addSink(sinks[0]), .bind(sink: sinks[0].id, source: r.sources[0].id),
                .addSink(sinks[1]), .bind(sink: sinks[1].id, source: r.sources[1].id),
                .addSink(sinks[2]), .bind(sink: sinks[2].id, source: r.sources[0].id),
                .addSink(sinks[3]), .bind(sink: sinks[3].id, source: r.sources[1].id),
            ])
        #expect(r.s.engine.forwardedFrom(roomId: "r2", userId: "A") == "r1")
        #expect(r.s.engine.forwardedFrom(roomId: "r1", userId: "A") == nil)
        #expect(r.s.engine.forwardingTotals == (2, 0))
        // The mirror is not a joined room of A's session, and A cannot act there.
        #expect(r.s.engine.rooms(of: r.a.session) == ["r1"])
        #expect(r.s.publish(r.a, room: "r2").error?.code == .notInRoom)
    }

    @Test func explicitSubscribeInATargetRoomWorksAsForALocalPublisher() throws {
        var r = Rooms()
        r.s.startForward(r.a, room: "r1", [.ok("r2")])
        let mark = r.s.mark
        let result = try #require(r.s.subscribe(r.b2, to: "A", mediaType: MediaType.video, room: "r2").value)
        #expect(result.state == .success)
        #expect(result.tracks.map(\.kind) == [.video])
        #expect(result.tracks[0].codec == "VP8" && result.tracks[0].parameters == "max-fr=30" && result.tracks[0].transportId == r.b2.transport)
        let sink = try #require(r.s.addedSinks(since: mark).first)
        #expect(sink.outputSSRC == result.tracks[0].ssrc)
        #expect(r.s.media(since: mark) == [.addSink(sink), .bind(sink: sink.id, source: r.sources[1].id)])
        #expect(r.s.events(for: r.b2, since: mark) == [.streamSubscribed(result)])
        // A user joining the target room later finds the mirror like any member.
        let late = r.s.connect("late")
        let mark2 = r.s.mark
        let joined = try #require(r.s.join(late, role: .audience, visible: false, room: "r2").value)
        #expect(joined.users.map(\.userId) == ["B2", "A"])
        #expect(joined.users[1].forwardedFrom == "r1")
        #expect(joined.users[1].streams == [RemoteStreamInfo(streamIndex: .main, mediaType: 3)])
        #expect(
            r.s.events(for: late, since: mark2) == [
                .roomState("late", room: "r2"), .joined("B2", room: "r2"), .mirrorJoined("A", from: "r1", room: "r2"), .published("A", room: "r2"),
            ])
    }

    @Test func laterPublishAndUnpublishFollowIntoEveryTarget() throws {
        var r = Rooms()
        r.s.startForward(r.a, room: "r1", [.ok("r2"), .ok("r3")])
        var mark = r.s.mark
        r.s.publish(r.a, .screen, room: "r1")
        let screen = r.s.addedSources(since: mark)
        #expect(r.s.events(for: r.b2, since: mark) == [.published("A", .screen, room: "r2")])
        #expect(Array(r.s.events(for: r.v3, since: mark).prefix(1)) == [.published("A", .screen, room: "r3")])
        #expect(r.s.binds(since: mark).filter { screen.map(\.id).contains($0.source) }.count == 6)  // v1, v2, v3 x audio+video

        mark = r.s.mark
        r.s.unpublish(r.a, .screen, room: "r1")
        #expect(r.s.events(for: r.b2, since: mark) == [.unpublished("A", .unpublish, .screen, room: "r2")])
        #expect(r.s.events(for: r.v3, since: mark) == [.unpublished("A", .unpublish, .screen, room: "r3")])
        // Targets unbind before the source goes.
        let media = r.s.media(since: mark)
        let firstRemoval = try #require(media.firstIndex { if case .removeSource = $0 { true } else { false } })
        #expect(media[..<firstRemoval].filter { if case .unbind = $0 { true } else { false } }.count == 6)  // v1, v2, v3
        #expect(r.s.removedSources(since: mark) == screen.map(\.id))
        #expect(r.s.snapshot(room: "r2", user: "A")?.publications.keys.sorted { $0.rawValue < $1.rawValue } == [.main])
    }

    @Test func republishingTheSameStreamShowsRepublishInTargetsAndRebindsTheSameSinks() throws {
        var r = Rooms()
        r.s.startForward(r.a, room: "r1", [.ok("r2"), .ok("r3")])
        let v2Sinks = try #require(r.s.snapshot(room: "r2", user: "v2")?.subscriptions.first?.sinks)
        let mark = r.s.mark

        r.s.publish(r.a, room: "r1")

        let fresh = r.s.addedSources(since: mark)
        #expect(fresh.count == 2 && Set(fresh.map(\.id)).isDisjoint(with: r.sources.map(\.id)))
        for (client, room) in [(r.b2, "r2")] {
            #expect(r.s.events(for: client, since: mark) == [.unpublished("A", .republish, room: room), .published("A", room: room)])
        }
        let v2Events = r.s.events(for: r.v2, since: mark)
        #expect(Array(v2Events.prefix(2)) == [.unpublished("A", .republish, room: "r2"), .published("A", room: "r2")])
        #expect(v2Events.last?.subscribed?.tracks.map(\.ssrc) == v2Sinks.map(\.outputSSRC))
        #expect(r.s.addedSinks(since: mark).isEmpty)
        #expect(r.s.removedSinks(since: mark).isEmpty)
        let media = r.s.media(since: mark)
        for (sink, source) in zip(v2Sinks, fresh) {
            let unbind = try #require(media.firstIndex(of: .unbind(sink: sink.id)))
            let bind = try #require(media.firstIndex(of: .bind(sink: sink.id, source: source.id)))
            #expect(unbind < bind)
        }
        #expect(r.s.mediaLeft().badBinds.isEmpty)
    }

    // MARK: Call order

    @Test func updateStopPauseAndResumeBeforeStartAreUnexpectedAPICalls() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.publish(a, room: "r1")
        let calls: [(String, (inout Scenario) -> RelayError?)] = [
            ("update", { $0.updateForward(a, room: "r1", [.ok("r2")]).error }),
            ("stop", { $0.stopForward(a, room: "r1").error }),
            ("pause", { $0.pauseForward(a, room: "r1", true).error }),
            ("resume", { $0.pauseForward(a, room: "r1", false).error }),
        ]
        for (name, call) in calls {
            let mark = s.mark
            let error = call(&s)
            #expect(error?.code == .forwardNotStarted, "\(name)")
            #expect(s.events(for: a, since: mark) == [.forwardEvent("r1", "A", [("", .unexpectedAPICall)])], "\(name)")
            #expect(s.media(since: mark).isEmpty, "\(name)")
        }
        #expect(s.engine.roomIds == ["r1"])
        s.expectNoForwardingLeft()
    }

    @Test func startingTwiceIsRefusedAndChangesNothing() {
        var r = Rooms()
        r.s.startForward(r.a, room: "r1", [.ok("r2")])
        let mark = r.s.mark
        let second = r.s.startForward(r.a, room: "r1", [.ok("r3")])
        #expect(second.error?.code == .forwardAlreadyStarted)
        #expect(r.s.events(for: r.a, since: mark) == [.forwardEvent("r1", "A", [("", .unexpectedAPICall)])])
        #expect(r.s.events(for: r.v3, since: mark).isEmpty)
        #expect(r.s.media(since: mark).isEmpty)
        #expect(r.s.engine.forwardingTotals == (1, 0))
        // A paused forward is still running: start is refused too.
        r.s.pauseForward(r.a, room: "r1")
        #expect(r.s.startForward(r.a, room: "r1", [.ok("r3")]).error?.code == .forwardAlreadyStarted)
    }

    @Test func stopEndsEveryTargetWithIdle() throws {
        var r = Rooms()
        r.s.startForward(r.a, room: "r1", [.ok("r2"), .ok("r3")])
        let mark = r.s.mark
        let result = try #require(r.s.stopForward(r.a, room: "r1").value)
        #expect(result.infos == [ForwardStreamStateInfo(roomId: "r2", state: 0, error: 0), ForwardStreamStateInfo(roomId: "r3", state: 0, error: 0)])
        #expect(r.s.events(for: r.a, since: mark) == [.forwardState("r1", "A", [("r2", .idle, 0), ("r3", .idle, 0)])])
        #expect(r.s.events(for: r.b2, since: mark) == [.unpublished("A", .unpublish, room: "r2"), .left("A", .quit, room: "r2")])
        #expect(r.s.events(for: r.v3, since: mark) == [.unpublished("A", .unpublish, room: "r3"), .left("A", .quit, room: "r3")])
        #expect(r.s.events(for: r.v1, since: mark).isEmpty)
        #expect(r.s.removedSources(since: mark).isEmpty)
        let left = r.s.mediaLeft()
        #expect(left.sinks.count == 2 && left.bound.count == 2)  // only v1's, in r1
        #expect(left.badBinds.isEmpty)
        r.s.expectNoForwardingLeft()
        #expect(r.s.engine.memberCount(roomId: "r3") == 1)
        // After a stop a new start is fine.
        #expect(r.s.startForward(r.a, room: "r1", [.ok("r3")]).value != nil)
    }

    @Test func pauseHidesTheMirrorsAndResumeBringsThemBackWithoutStateChanges() throws {
        var r = Rooms()
        r.s.startForward(r.a, room: "r1", [.ok("r2"), .ok("r3")])
        var mark = r.s.mark

        let paused = try #require(r.s.pauseForward(r.a, room: "r1", true).value)
        #expect(paused.infos.map(\.state) == [1, 1])
        #expect(r.s.events(for: r.a, since: mark).isEmpty)
        #expect(r.s.events(for: r.b2, since: mark) == [.unpublished("A", .unpublish, room: "r2"), .left("A", .quit, room: "r2")])
        #expect(r.s.events(for: r.v3, since: mark) == [.unpublished("A", .unpublish, room: "r3"), .left("A", .quit, room: "r3")])
        #expect(r.s.engine.forwardingTotals == (2, 0))
        #expect(r.s.engine.firstKeyframeWatches().isEmpty)
        #expect(r.s.engine.memberCount(roomId: "r2") == 2)

        mark = r.s.mark
        r.s.pauseForward(r.a, room: "r1", true)  // already paused: nothing
        #expect(r.s.log.count == mark)

        r.s.advance(seconds: 5)
        let resumed = try #require(r.s.pauseForward(r.a, room: "r1", false).value)
        #expect(resumed.infos.map(\.state) == [1, 1])
        #expect(r.s.events(for: r.a, since: mark).isEmpty)
        #expect(r.s.events(for: r.b2, since: mark) == [.mirrorJoined("A", from: "r1", room: "r2"), .published("A", room: "r2")])
        #expect(Array(r.s.events(for: r.v3, since: mark).prefix(2)) == [.mirrorJoined("A", from: "r1", room: "r3"), .published("A", room: "r3")])
        #expect(r.s.binds(since: mark).filter { $0.source == r.sources[1].id }.count == 2, "each target's video subscriber is bound again")
        #expect(r.s.engine.firstKeyframeWatches().map(\.startedAt) == [r.s.now, r.s.now])
    }

    @Test func aRealUserJoiningATargetDuringAPauseEndsThatTargetAsIfItsMirrorWereThere() throws {
        var r = Rooms()
        r.s.startForward(r.a, room: "r1", [.ok("r2"), .ok("r3")])
        r.s.pauseForward(r.a, room: "r1")
        let realA = r.s.connect("A")
        var mark = r.s.mark

        #expect(r.s.join(realA, room: "r2").value != nil)

        #expect(
            r.s.events(for: r.a, since: mark) == [
                .forwardState("r1", "A", [("r2", .failure, 1204)]),
                .forwardEvent("r1", "A", [("r2", .interrupt)]),
            ])
        // Nobody was shown for the paused forward, so room 2 sees only the real user arrive.
        #expect(r.s.events(for: r.b2, since: mark) == [.joined("A", room: "r2")])
        #expect(r.s.engine.forwardingTotals == (1, 0))

        mark = r.s.mark
        let resumed = try #require(r.s.pauseForward(r.a, room: "r1", false).value)
        #expect(resumed.infos.map(\.roomId) == ["r3"], "only the target still forwarded is reported")
        #expect(r.s.engine.forwardedFrom(roomId: "r2", userId: "A") == nil)
        #expect(r.s.engine.forwardedFrom(roomId: "r3", userId: "A") == "r1")
        #expect(r.s.events(for: r.b2, since: mark).isEmpty, "the real user keeps its place")
    }

    @Test func aStartWithNoTargetStartedBindsNothing() {
        var r = Rooms()
        let mark = r.s.mark
        #expect(r.s.startForward(r.a, room: "r1", []).value?.infos == [])
        #expect(r.s.binds(since: mark).isEmpty)
        r.s.expectNoForwardingLeft()
        #expect(r.s.startForward(r.a, room: "r1", [.ok("r2")]).value != nil)
        #expect(r.s.binds(since: mark).contains { $0.source == r.sources[1].id }, "a started target binds its subscribers' video")
    }

    @Test func stopWhilePausedReportsIdleWithoutFurtherLeaves() {
        var r = Rooms()
        r.s.startForward(r.a, room: "r1", [.ok("r2"), .ok("r3")])
        r.s.pauseForward(r.a, room: "r1")
        let mark = r.s.mark
        #expect(r.s.stopForward(r.a, room: "r1").value?.infos.map(\.state) == [0, 0])
        #expect(r.s.events(for: r.a, since: mark) == [.forwardState("r1", "A", [("r2", .idle, 0), ("r3", .idle, 0)])])
        #expect(r.s.events(for: r.b2, since: mark).isEmpty)
        #expect(r.s.events(for: r.v2, since: mark).isEmpty)
        #expect(r.s.media(since: mark).isEmpty)
        r.s.expectNoForwardingLeft()
    }

    @Test func updateReportsOnlyTheTargetsThatChanged() throws {
        var r = Rooms()
        let v4 = r.s.enter("v4", role: .audience, visible: false, room: "r4")
        r.s.startForward(r.a, room: "r1", [.ok("r2"), .ok("r3")])
        r.s.advance(seconds: 10)
        let refreshed = r.s.grants(validFor: 7200)
        let mark = r.s.mark

        let result = try #require(r.s.updateForward(r.a, room: "r1", [.ok("r3", refreshed), .ok("r4")]).value)

        #expect(result.infos == [ForwardStreamStateInfo(roomId: "r2", state: 0, error: 0), ForwardStreamStateInfo(roomId: "r4", state: 1, error: 0)])
        #expect(
            r.s.events(for: r.a, since: mark) == [
                .forwardState("r1", "A", [("r2", .idle, 0), ("r4", .success, 0)]),
                .forwardEvent("r1", "A", [("r2", .dstRoomUpdated), ("r4", .dstRoomUpdated)]),
            ])
        #expect(r.s.events(for: r.b2, since: mark) == [.unpublished("A", .unpublish, room: "r2"), .left("A", .quit, room: "r2")])
        #expect(r.s.events(for: r.v3, since: mark).isEmpty)
        #expect(r.s.events(for: v4, since: mark) == [.mirrorJoined("A", from: "r1", room: "r4"), .published("A", room: "r4")])
        #expect(r.s.snapshot(room: "r3", user: "A")?.tokenExpiresAt == refreshed.expiresAt)
        #expect(r.s.engine.forwardingTotals == (2, 0))

        // The same list again changes nothing and reports nothing.
        let again = r.s.mark
        #expect(r.s.updateForward(r.a, room: "r1", [.ok("r3", refreshed), .ok("r4")]).value?.infos == [])
        #expect(r.s.log.count == again)
    }

    @Test func updateWithARefreshedTokenThatFailsEndsThatTarget() {
        var r = Rooms()
        r.s.startForward(r.a, room: "r1", [.ok("r2"), .ok("r3")])
        let mark = r.s.mark
        let out = r.s.updateForward(r.a, room: "r1", [.ok("r2"), .bad("r3", .tokenExpired, "expired")])
        #expect(out.value?.infos.map { [$0.roomId, "\($0.state)", "\($0.error)"] } == [["r3", "2", "1202"]])
        #expect(r.s.events(for: r.a, since: mark) == [.forwardState("r1", "A", [("r3", .failure, 1202)])])
        #expect(r.s.events(for: r.v3, since: mark) == [.unpublished("A", .other, room: "r3"), .left("A", .dropped, room: "r3")])
        #expect(r.s.engine.forwardingTotals == (1, 0))
    }

    // MARK: Failures

    @Test func oneBadTokenAmongSeveralFailsOnlyThatTarget() throws {
        var r = Rooms()
        let v4 = r.s.enter("v4", role: .audience, visible: false, room: "r4")
        let mark = r.s.mark
        let result = try #require(r.s.startForward(r.a, room: "r1", [.ok("r2"), .bad("r3"), .ok("r4")]).value)
        #expect(result.infos.map(\.state) == [1, 2, 1])
        #expect(result.infos.map(\.error) == [0, 1202, 0])
        #expect(result.infos[1].message == "signature mismatch")
        #expect(r.s.events(for: r.a, since: mark) == [.forwardState("r1", "A", [("r2", .success, 0), ("r3", .failure, 1202), ("r4", .success, 0)])])
        #expect(r.s.events(for: r.v3, since: mark).isEmpty)
        #expect(r.s.engine.memberCount(roomId: "r3") == 1)
        #expect(r.s.events(for: v4, since: mark) == [.mirrorJoined("A", from: "r1", room: "r4"), .published("A", room: "r4")])
        #expect(r.s.engine.forwardingTotals == (2, 0))
    }

    @Test func invalidTargetsFailWithTheirCodes() throws {
        var r = Rooms()
        let realA = r.s.connect("A")
        r.s.join(realA, role: .audience, visible: false, room: "r5")  // a real "A" (even invisible) holds r5
        let mark = r.s.mark
        let result = try #require(
            r.s.startForward(
                r.a, room: "r1",
                [
                    .ok("r1"), .ok("r2"), .ok("r2"), .ok(""), .ok("r3", r.s.grants(publish: false)), .ok("r5"),
                ]
            ).value)
        #expect(result.infos.map(\.roomId) == ["r1", "r2", "r2", "", "r3", "r5"])
        #expect(result.infos.map(\.state) == [2, 1, 2, 2, 2, 2])
        #expect(result.infos.map(\.error) == [1201, 0, 1201, 1201, 1202, 1204])
        #expect(r.s.events(for: r.a, since: mark).count == 1)
        #expect(r.s.events(for: r.b2, since: mark) == [.mirrorJoined("A", from: "r1", room: "r2"), .published("A", room: "r2")])
        #expect(r.s.events(for: realA, since: mark).isEmpty)
        #expect(r.s.engine.forwardingTotals == (1, 0))
    }

    @Test func allTargetsFailingLeavesNoForward() {
        var r = Rooms()
        let out = r.s.startForward(r.a, room: "r1", [.bad("r2"), .ok("r1")])
        #expect(out.value?.infos.map(\.state) == [2, 2])
        r.s.expectNoForwardingLeft()
        // Nothing runs, so update is an unexpected call.
        #expect(r.s.updateForward(r.a, room: "r1", [.ok("r2")]).error?.code == .forwardNotStarted)
    }

    @Test func aRealUserJoiningATargetLaterInterruptsThatForwardOnly() {
        var r = Rooms()
        r.s.startForward(r.a, room: "r1", [.ok("r2"), .ok("r3")])
        let realA = r.s.connect("A")
        let mark = r.s.mark

        #expect(r.s.join(realA, room: "r2").value != nil)

        #expect(
            r.s.events(for: r.a, since: mark) == [
                .forwardState("r1", "A", [("r2", .failure, 1204)]),
                .forwardEvent("r1", "A", [("r2", .interrupt)]),
            ])
        #expect(
            r.s.events(for: r.b2, since: mark) == [
                .unpublished("A", .other, room: "r2"), .left("A", .dropped, room: "r2"), .joined("A", room: "r2"),
            ])
        #expect(r.s.events(for: r.v3, since: mark).isEmpty)
        #expect(r.s.engine.forwardedFrom(roomId: "r2", userId: "A") == nil)
        #expect(r.s.engine.forwardedFrom(roomId: "r3", userId: "A") == "r1")
        #expect(r.s.engine.forwardingTotals == (1, 0))
        // v2's sinks on the mirror went with it.
        let v2Sinks = r.s.addedSinks().filter { $0.transportId == r.v2.transport }
        #expect(v2Sinks.count == 2 && v2Sinks.allSatisfy { r.s.removedSinks(since: mark).contains($0.id) })
        // The other target still follows A's publishing.
        let mark2 = r.s.mark
        r.s.unpublish(r.a, room: "r1")
        #expect(r.s.events(for: r.v3, since: mark2) == [.unpublished("A", .unpublish, room: "r3")])
        #expect(r.s.events(for: r.b2, since: mark2).isEmpty)
    }

    @Test func targetLimitIsAnErrorAndChangesNothing() {
        var limits = RoomLimits()
        limits.maximumForwardTargetsPerUser = 2
        var s = Scenario(limits: limits)
        let a = s.enter("A", room: "r1")
        s.publish(a, room: "r1")
        var mark = s.mark
        #expect(s.startForward(a, room: "r1", [.ok("r2"), .ok("r3"), .ok("r4")]).error?.code == .forwardTargetLimit)
        #expect(s.log.count == mark)
        #expect(s.engine.roomIds == ["r1"])
        s.expectNoForwardingLeft()

        #expect(s.startForward(a, room: "r1", [.ok("r2"), .ok("r3")]).value != nil)
        mark = s.mark
        #expect(s.updateForward(a, room: "r1", [.ok("r2"), .ok("r3"), .ok("r4")]).error?.code == .forwardTargetLimit)
        #expect(s.log.count == mark)
        #expect(s.engine.roomIds == ["r1", "r2", "r3"])
        #expect(s.engine.forwardingTotals == (2, 0))
        // Swapping one target keeps within the limit.
        #expect(s.updateForward(a, room: "r1", [.ok("r2"), .ok("r4")]).value?.infos.map(\.roomId) == ["r3", "r4"])
    }

    @Test func withoutTheForwardGrantNothingStarts() {
        var s = Scenario()
        let a = s.enter("A", grants: s.grants(forward: false), room: "r1")
        s.publish(a, room: "r1")
        let mark = s.mark
        #expect(s.startForward(a, room: "r1", [.ok("r2")]).error?.code == .noForwardPermission)
        #expect(s.updateForward(a, room: "r1", [.ok("r2")]).error?.code == .noForwardPermission)
        #expect(s.log.count == mark)
        #expect(s.engine.roomIds == ["r1"])
    }

    @Test func forwardCallsForARoomNotJoinedAreNotInRoom() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        #expect(s.startForward(a, room: "r9", [.ok("r2")]).error?.code == .notInRoom)
        #expect(s.stopForward(a, room: "r9").error?.code == .notInRoom)
        #expect(s.pauseForward(a, room: "r9").error?.code == .notInRoom)
        #expect(s.log.filter { if case .event(a.session, .forwardStreamEvent) = $0 { true } else { false } }.isEmpty)
    }
}

extension Scenario {
    /// The snapshot of `user` in `room` (mirrors included).
    func snapshot(room: String, user: String) -> MemberSnapshot? {
        engine.snapshot(roomId: room)?.first { $0.userId == user }
    }
}
