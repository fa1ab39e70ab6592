import Protocol
import RoomEngine
import Testing

/// The layer allocator's limits as the engine applies them: a limit to small switches layers at a
/// keyframe, a pause unbinds the video sink while audio goes on, and the subscriber hears each
/// change with its reason, never its first delivery.
@Suite struct VideoLimitScenarioTests {
    static func setUp() throws -> (Scenario, Client, [SourceTrack], SinkTrack, SubscriptionRef) {
        var s = Scenario()
        let anchor = s.enter("anchor")
        try #require(s.publish(anchor, tracks: DualStreamScenarioTests.dualTracks(anchor)).error == nil)
        let sources = s.addedSources()
        let viewer = s.enter("viewer", role: .audience, visible: false)
        _ = try #require(DualStreamScenarioTests.subscribe(&s, viewer, to: "anchor", nil).value)
        let sink = try #require(s.addedSinks().last)
        let ref = SubscriptionRef(roomId: Scenario.room, subscriberId: "viewer", publisherUserId: "anchor", streamIndex: .main)
        return (s, viewer, sources, sink, ref)
    }

    static func change(
        _ before: (VideoStreamType, Bool), _ after: (VideoStreamType, Bool), _ reason: FallbackOrRecoverReason, estimate: Int? = nil
    ) -> ServerEvent {
        .simulcastSubscribeFallback(
            SimulcastSubscribeFallbackEvent(
                roomId: Scenario.room, userId: "anchor", streamIndex: .main, beforeVideoStreamType: before.0, afterVideoStreamType: after.0,
                beforeVideoEnabled: before.1, afterVideoEnabled: after.1, reason: reason, estimateBps: estimate))
    }

    @Test func theFirstDeliveryIsNotAChangeAndTheCandidateNamesBothLayers() throws {
        let (s, viewer, sources, sink, ref) = try Self.setUp()
        #expect(!s.events(for: viewer).contains { if case .simulcastSubscribeFallback = $0 { true } else { false } })
        let candidates = s.engine.videoAllocationCandidates()
        #expect(
            candidates == [
                VideoAllocationCandidate(
                    ref: ref, session: viewer.session, transportId: sink.transportId, audioSourceId: sources[0].id, requested: .big,
                    bigSourceId: sources[1].id, smallSourceId: sources[2].id, limit: .none)
            ])
    }

    @Test func theCandidatesOfOneTransportAreThoseOfTheWholeNodeOnIt() throws {
        var (s, _, _, sink, _) = try Self.setUp()
        let other = s.enter("other", role: .audience, visible: false)
        _ = try #require(DualStreamScenarioTests.subscribe(&s, other, to: "anchor", nil).value)
        let otherSink = try #require(s.addedSinks().last)
        let all = s.engine.videoAllocationCandidates()
        #expect(all.count == 2 && sink.transportId != otherSink.transportId)
        for transport in [sink.transportId, otherSink.transportId] {
            #expect(s.engine.videoAllocationCandidates(onTransport: transport) == all.filter { $0.transportId == transport })
        }
        #expect(s.engine.videoAllocationCandidates(onTransport: 9_999).isEmpty, "no such transport")
        s.record(actions: s.engine.transportClosed(session: other.session, transportId: otherSink.transportId, now: s.now))
        #expect(s.engine.videoAllocationCandidates(onTransport: otherSink.transportId).isEmpty, "a closed transport has none")
        #expect(s.engine.videoAllocationCandidates(onTransport: sink.transportId).count == 1)
    }

    @Test func aLimitToSmallSwitchesAtAKeyframeAndRecoveryComesBack() throws {
        var (s, viewer, sources, sink, ref) = try Self.setUp()
        let mark = s.mark
        s.record(actions: s.engine.limitVideo(ref, to: .small, reason: .subscribeFallbackByBandwidth, estimateBps: 600_000))
        #expect(s.media(since: mark) == [.switchSource(sink: sink.id, source: sources[2].id)])
        let events = s.events(for: viewer, since: mark)
        #expect(events.first == Self.change((.big, true), (.small, true), .subscribeFallbackByBandwidth, estimate: 600_000))
        #expect(events.last?.subscribed?.tracks.last?.videoStreamType == .small)
        #expect(s.engine.videoAllocationCandidates().first?.limit == .small)

        // The same limit again changes nothing.
        let again = s.mark
        s.record(actions: s.engine.limitVideo(ref, to: .small, reason: .subscribeFallbackByBandwidth, estimateBps: 500_000))
        #expect(s.media(since: again).isEmpty && s.events(for: viewer, since: again).isEmpty)

        let up = s.mark
        s.record(actions: s.engine.limitVideo(ref, to: .none, reason: .subscribeRecoverByBandwidth, estimateBps: 3_000_000))
        #expect(s.media(since: up) == [.switchSource(sink: sink.id, source: sources[1].id)])
        #expect(s.events(for: viewer, since: up).first == Self.change((.small, true), (.big, true), .subscribeRecoverByBandwidth, estimate: 3_000_000))
    }

    @Test func aPauseUnbindsOnlyTheVideoSinkAndResumingBindsItAgain() throws {
        var (s, viewer, sources, sink, ref) = try Self.setUp()
        let mark = s.mark
        s.record(actions: s.engine.limitVideo(ref, to: .paused, reason: .subscribeFallbackByBandwidth, estimateBps: 80_000))
        // Audio goes on: only the video sink stops, and keeps its numbering for later.
        #expect(s.media(since: mark) == [.unbind(sink: sink.id)])
        #expect(s.events(for: viewer, since: mark).first == Self.change((.big, true), (.small, false), .subscribeFallbackByBandwidth, estimate: 80_000))

        let resume = s.mark
        s.record(actions: s.engine.limitVideo(ref, to: .small, reason: .subscribeRecoverByBandwidth, estimateBps: 400_000))
        #expect(s.media(since: resume) == [.bind(sink: sink.id, source: sources[2].id)])
        #expect(s.events(for: viewer, since: resume).first == Self.change((.small, false), (.small, true), .subscribeRecoverByBandwidth, estimate: 400_000))
    }

    @Test func thePublisherHearsWhichEncodingsAnyoneReceives() throws {
        var (s, _, _, _, ref) = try Self.setUp()
        func use() -> (big: Bool, small: Bool)? {
            s.engine.layerDemand().first.map { ($0.event.bigSubscribed, $0.event.smallSubscribed) }
        }
        #expect(use()?.big == true && use()?.small == false)
        // The viewer moved to small: the switch target counts at once, before its keyframe.
        s.record(actions: s.engine.limitVideo(ref, to: .small, reason: .subscribeFallbackByBandwidth, estimateBps: 500_000))
        #expect(use()?.big == false && use()?.small == true)
        s.record(actions: s.engine.limitVideo(ref, to: .paused, reason: .subscribeFallbackByBandwidth, estimateBps: 50_000))
        #expect(use()?.big == false && use()?.small == false)
    }

    @Test func threeLayersPublishedAsTracksAndAMediumLimitSwitchesToTheMiddleOne() throws {
        var s = Scenario()
        let anchor = s.enter("anchor")
        var tracks = DualStreamScenarioTests.dualTracks(anchor)
        tracks.append(
            TrackDescription(kind: .video, ssrc: anchor.ssrcBase + 4, payloadType: 96, codec: "VP8", clockRate: 90_000, videoStreamType: .medium))
        try #require(s.publish(anchor, tracks: tracks).error == nil)
        let sources = s.addedSources()
        #expect(sources.map(\.videoStreamType) == [.big, .big, .small, .medium])
        let viewer = s.enter("viewer", role: .audience, visible: false)
        _ = try #require(DualStreamScenarioTests.subscribe(&s, viewer, to: "anchor", nil).value)
        let sink = try #require(s.addedSinks().last)
        #expect(s.engine.videoAllocationCandidates().first?.mediumSourceId == sources[3].id)
        #expect(s.engine.layerDemand().first?.event.mediumSubscribed == false)

        let ref = SubscriptionRef(roomId: Scenario.room, subscriberId: "viewer", publisherUserId: "anchor", streamIndex: .main)
        let mark = s.mark
        s.record(actions: s.engine.limitVideo(ref, to: .medium, reason: .subscribeFallbackByBandwidth, estimateBps: 900_000))
        #expect(s.media(since: mark) == [.switchSource(sink: sink.id, source: sources[3].id)])
        #expect(s.events(for: viewer, since: mark).first == Self.change((.big, true), (.medium, true), .subscribeFallbackByBandwidth, estimate: 900_000))
        #expect(s.engine.layerDemand().first?.event.mediumSubscribed == true)
        // Asking for medium explicitly works as for small.
        let asked = try #require(DualStreamScenarioTests.setType(&s, viewer, of: "anchor", .medium).value)
        #expect(asked.tracks.last?.videoStreamType == .medium)

        // A medium track needs a big one with the same codec.
        let lone = s.enter("lone")
        let refused = s.publish(
            lone, tracks: [TrackDescription(kind: .video, ssrc: lone.ssrcBase + 4, payloadType: 96, codec: "VP8", clockRate: 90_000, videoStreamType: .medium)])
        #expect(refused.error?.message.contains("a medium video track needs a big video track") == true)
    }

    @Test func theSubscribersCeilingStaysAboveAnyLimit() throws {
        var (s, viewer, _, _, ref) = try Self.setUp()
        _ = try #require(DualStreamScenarioTests.setType(&s, viewer, of: "anchor", .small).value)
        // Lifting a limit never raises the subscriber above what it asked for.
        s.record(actions: s.engine.limitVideo(ref, to: .small, reason: .subscribeFallbackByBandwidth, estimateBps: 300_000))
        let mark = s.mark
        s.record(actions: s.engine.limitVideo(ref, to: .none, reason: .subscribeRecoverByBandwidth, estimateBps: 3_000_000))
        #expect(s.media(since: mark).isEmpty)
        #expect(s.events(for: viewer, since: mark).last?.subscribed?.tracks.last?.videoStreamType == .small)
    }
}
