import Protocol
import RoomEngine
import Testing

/// Dual stream (TRTC big/small): which encoding a subscriber is bound to, fallback to big while no
/// small stream is published, recovery when it appears, and layer switches through forwards.
@Suite struct DualStreamScenarioTests {
    /// Audio, a big VP8 track and (optionally) a small one with the same codec and payload type.
    static func dualTracks(_ client: Client, small: Bool = true) -> [TrackDescription] {
        var tracks = client.tracks()
        if small {
            tracks.append(
                TrackDescription(
                    kind: .video, ssrc: client.ssrcBase + 3, payloadType: 96, codec: "VP8", clockRate: 90_000,
                    parameters: "max-fr=15", videoStreamType: .small))
        }
        return tracks
    }

    static func subscribe(
        _ s: inout Scenario, _ viewer: Client, to publisher: String, _ type: VideoStreamType?, room: String = Scenario.room
    ) -> EngineOutcome<SubscribeStreamResult> {
        let params = SubscribeStreamParams(roomId: room, userId: publisher, transportId: viewer.transport, videoStreamType: type)
        return s.record(s.engine.subscribe(session: viewer.session, params: params, now: s.now))
    }

    static func setType(
        _ s: inout Scenario, _ viewer: Client, of publisher: String, _ type: VideoStreamType, room: String = Scenario.room
    ) -> EngineOutcome<SubscribeStreamResult> {
        let params = SetRemoteVideoStreamTypeParams(roomId: room, userId: publisher, streamType: type)
        return s.record(s.engine.setRemoteVideoStreamType(session: viewer.session, params: params, now: s.now))
    }

    @Test func subscribersOnDifferentLayersAreBoundToDifferentSources() throws {
        var s = Scenario()
        let anchor = s.enter("anchor")
        try #require(s.publish(anchor, tracks: Self.dualTracks(anchor)).error == nil)
        let sources = s.addedSources()
        #expect(sources.map(\.videoStreamType) == [.big, .big, .small])
        let big = sources[1]
        let small = sources[2]
        let viewerBig = s.enter("big-viewer", role: .audience, visible: false)
        let viewerSmall = s.enter("small-viewer", role: .audience, visible: false)

        let bigResult = try #require(Self.subscribe(&s, viewerBig, to: "anchor", nil).value)
        let mark = s.mark
        let smallResult = try #require(Self.subscribe(&s, viewerSmall, to: "anchor", .small).value)

        #expect(bigResult.tracks.map(\.videoStreamType) == [nil, .big])
        #expect(smallResult.tracks.map(\.videoStreamType) == [nil, .small])
        #expect(smallResult.tracks[1].payloadType == 96)
        #expect(s.binds(since: mark).map(\.source) == [sources[0].id, small.id])
        #expect(s.binds().map(\.source).filter { $0 == big.id }.count == 1)
    }

    @Test func switchingLayersMovesTheSameSinkAtAKeyframe() throws {
        var s = Scenario()
        let anchor = s.enter("anchor")
        s.publish(anchor, tracks: Self.dualTracks(anchor))
        let sources = s.addedSources()
        let viewer = s.enter("viewer", role: .audience, visible: false)
        let first = try #require(Self.subscribe(&s, viewer, to: "anchor", .big).value)
        let sink = try #require(s.addedSinks().last)
        let mark = s.mark

        let switched = try #require(Self.setType(&s, viewer, of: "anchor", .small).value)

        // Same output SSRC, no new sink, no unbind: the media plane switches at the small
        // layer's keyframe and the subscriber's numbering continues.
        #expect(switched.tracks.map(\.ssrc) == first.tracks.map(\.ssrc))
        #expect(switched.tracks[1].videoStreamType == .small)
        #expect(s.media(since: mark) == [.switchSource(sink: sink.id, source: sources[2].id)])
        let change = SimulcastSubscribeFallbackEvent(
            roomId: Scenario.room, userId: "anchor", streamIndex: .main, beforeVideoStreamType: .big, afterVideoStreamType: .small,
            beforeVideoEnabled: true, afterVideoEnabled: true, reason: .subscriberRequest)
        #expect(s.events(for: viewer, since: mark) == [.simulcastSubscribeFallback(change), .streamSubscribed(switched)])

        let back = s.mark
        _ = try #require(Self.setType(&s, viewer, of: "anchor", .big).value)
        #expect(s.media(since: back) == [.switchSource(sink: sink.id, source: sources[1].id)])
        // Asking again for the layer already delivered changes nothing in the media plane.
        let again = s.mark
        _ = try #require(Self.setType(&s, viewer, of: "anchor", .big).value)
        #expect(s.media(since: again).isEmpty)
    }

    @Test func smallFallsBackToBigAndRecoversWhenSmallIsPublished() throws {
        var s = Scenario()
        let anchor = s.enter("anchor")
        s.publish(anchor, tracks: Self.dualTracks(anchor, small: false))
        let singleSources = s.addedSources()
        let viewer = s.enter("viewer", role: .audience, visible: false)

        let fallback = try #require(Self.subscribe(&s, viewer, to: "anchor", .small).value)
        #expect(fallback.tracks[1].videoStreamType == .big)
        #expect(s.binds().last?.source == singleSources[1].id)

        // The anchor republishes with a small stream: the viewer who asked for small gets it.
        let mark = s.mark
        s.publish(anchor, tracks: Self.dualTracks(anchor))
        let dualSources = s.addedSources(since: mark)
        let events = s.events(for: viewer, since: mark)
        let recovered = try #require(events.last?.subscribed)
        #expect(recovered.tracks[1].videoStreamType == .small)
        #expect(recovered.tracks.map(\.ssrc) == fallback.tracks.map(\.ssrc))
        #expect(s.binds(since: mark).last?.source == dualSources[2].id)

        // And back to big when the small stream goes away again.
        let drop = s.mark
        s.publish(anchor, tracks: Self.dualTracks(anchor, small: false))
        let again = try #require(s.events(for: viewer, since: drop).last?.subscribed)
        #expect(again.tracks[1].videoStreamType == .big)
        #expect(s.binds(since: drop).last?.source == s.addedSources(since: drop)[1].id)
    }

    @Test func autoSubscribeUsesTheRoomConfigLayer() throws {
        var s = Scenario()
        let anchor = s.enter("anchor")
        let viewerClient = s.connect("viewer")
        s.join(
            viewerClient, role: .audience, visible: false,
            config: RoomConfig(subscribeTransportId: viewerClient.transport, autoSubscribeVideoStreamType: .small))
        let mark = s.mark
        s.publish(anchor, tracks: Self.dualTracks(anchor))
        let small = s.addedSources(since: mark)[2]
        let subscribed = try #require(s.events(for: viewerClient, since: mark).last?.subscribed)
        #expect(subscribed.tracks[1].videoStreamType == .small)
        #expect(s.binds(since: mark).contains { $0.source == small.id })
    }

    @Test func invalidLayerDeclarationsAreRejected() {
        var s = Scenario()
        let anchor = s.enter("anchor")
        let base = anchor.ssrcBase
        func video(_ ssrc: UInt32, _ type: VideoStreamType?, pt: Int = 96, codec: String = "VP8") -> TrackDescription {
            TrackDescription(kind: .video, ssrc: ssrc, payloadType: pt, codec: codec, clockRate: 90_000, videoStreamType: type)
        }
        let cases: [([TrackDescription], String)] = [
            ([video(base + 1, .small)], "a small video track needs a big video track"),
            ([video(base + 1, .big), video(base + 2, .small, pt: 97)], "the small video track must use the big track's codec, payload type and clock rate"),
            ([video(base + 1, .big), video(base + 2, .small, codec: "H264")], "the small video track must use the big track's codec"),
            ([video(base + 1, nil), video(base + 2, .big)], "more than one big video track"),
            ([video(base + 1, .big), video(base + 2, .small), video(base + 3, .small)], "more than one small video track"),
            (
                [TrackDescription(kind: .audio, ssrc: base + 1, payloadType: 111, codec: "opus", clockRate: 48_000, videoStreamType: .small)],
                "videoStreamType is for video tracks only"
            ),
        ]
        for (tracks, message) in cases {
            let outcome = s.publish(anchor, tracks: tracks)
            #expect(outcome.error?.code == .invalidParams, "\(message)")
            #expect(outcome.error?.message.contains(message) == true, "\(outcome.error?.message ?? "no error") should say \(message)")
        }
        #expect(s.addedSources().isEmpty)
    }

    @Test func setRemoteVideoStreamTypeNeedsASubscription() {
        var s = Scenario()
        _ = s.enter("anchor")
        let viewer = s.enter("viewer", role: .audience, visible: false)
        let outcome = Self.setType(&s, viewer, of: "anchor", .small)
        #expect(outcome.error?.code == .wrongState)
    }

    @Test func bothLayersTravelThroughAForwardAndTargetRoomsChoose() throws {
        var s = Scenario()
        let anchor = s.enter("A", room: "r1")
        s.publish(anchor, tracks: Self.dualTracks(anchor), room: "r1")
        let sources = s.addedSources()
        _ = s.enter("B", room: "r2")
        let smallViewer = s.enter("small", role: .audience, visible: false, room: "r2")
        let bigViewer = s.enter("big", role: .audience, visible: false, room: "r2")
        try #require(s.startForward(anchor, room: "r1", [.ok("r2")]).error == nil)

        let mark = s.mark
        let small = try #require(Self.subscribe(&s, smallViewer, to: "A", .small, room: "r2").value)
        let big = try #require(Self.subscribe(&s, bigViewer, to: "A", nil, room: "r2").value)
        #expect(small.tracks[1].videoStreamType == .small)
        #expect(big.tracks[1].videoStreamType == .big)
        let binds = s.binds(since: mark).map(\.source)
        #expect(binds.contains(sources[2].id) && binds.contains(sources[1].id))

        // The target-room viewer switches like any other subscriber.
        let switchMark = s.mark
        _ = try #require(Self.setType(&s, smallViewer, of: "A", .big, room: "r2").value)
        let switches = s.media(since: switchMark)
        #expect(switches.count == 1)
        if case .switchSource(_, let source) = switches.first { #expect(source == sources[1].id) } else { Issue.record("expected a switch, got \(switches)") }
    }
}

/// Simulcast layers announced by rid (WebRTC) before their SSRC is known.
@Suite struct SimulcastLayerScenarioTests {
    @Test func ridLayersWithoutSSRCArePublishedAsTheDualStream() throws {
        var s = Scenario()
        let anchor = s.enter("anchor")
        var big = TrackDescription(kind: .video, ssrc: 0, payloadType: 96, codec: "VP8", clockRate: 90_000, videoStreamType: .big)
        big.rid = "f"
        var small = TrackDescription(kind: .video, ssrc: 0, payloadType: 96, codec: "VP8", clockRate: 90_000, videoStreamType: .small)
        small.rid = "q"
        let audio = TrackDescription(kind: .audio, ssrc: anchor.ssrcBase + 1, payloadType: 111, codec: "opus", clockRate: 48_000, channels: 2)
        try #require(s.publish(anchor, tracks: [audio, big, small]).error == nil)
        let sources = s.addedSources()
        #expect(sources.map(\.rid) == [nil, "f", "q"])
        #expect(sources.map(\.videoStreamType) == [.big, .big, .small])
        #expect(sources.dropFirst().allSatisfy { $0.ssrc == 0 })

        let viewer = s.enter("viewer", role: .audience, visible: false)
        let result = try #require(DualStreamScenarioTests.subscribe(&s, viewer, to: "anchor", .small).value)
        #expect(result.tracks.last?.videoStreamType == .small)
        #expect(s.binds().last?.source == sources[2].id)
    }

    @Test func aZeroSSRCNeedsARid() {
        var s = Scenario()
        let anchor = s.enter("anchor")
        let outcome = s.publish(anchor, tracks: [TrackDescription(kind: .video, ssrc: 0, payloadType: 96, codec: "VP8", clockRate: 90_000)])
        #expect(outcome.error?.code == .invalidParams)
        #expect(outcome.error?.message.contains("ssrc must not be 0") == true)
    }
}
