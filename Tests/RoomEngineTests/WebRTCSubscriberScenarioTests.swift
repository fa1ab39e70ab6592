import Protocol
import RoomEngine
import Testing

/// A WebRTC subscriber's side of the engine: what its offers say (mids, payload types, RTX
/// streams) and when its sinks are bound (once the client has accepted their sections).
@Suite struct WebRTCSubscriberScenarioTests {
    /// A publisher in the room and a viewer receiving on a WebRTC transport.
    struct Room {
        var s = Scenario()
        let anchor: Client, viewer: Client
        let receive: Int
        let sources: [SourceTrack]

        init() {
            anchor = s.enter("anchor")
            s.publish(anchor)
            sources = s.addedSources()
            viewer = s.enter("viewer", role: .audience, visible: false)
            receive = s.createTransport(for: viewer.session, kind: .webRTC)
        }

        /// The tracks the last `subscriberTracks` action offered on the viewer's transport.
        func offered(since mark: Int = 0) -> [OfferedTrack]? {
            s.log[mark...].compactMap { action -> [OfferedTrack]? in
                guard case .subscriberTracks(let tracks) = action, tracks.transportId == receive else { return nil }
                return tracks.tracks
            }.last
        }

        /// The client's answer accepting every offered section (all active).
        func acceptAll(_ tracks: [OfferedTrack], newlyActive: Bool = true, retransmission: Bool = true) -> SubscriptionAnswerFacts {
            let mids = Set(tracks.map(\.mid))
            return SubscriptionAnswerFacts(
                slots: tracks.map { OfferedSlot(mid: $0.mid, kind: $0.kind, isActive: true) }, accepted: mids,
                retransmission: retransmission ? Set(tracks.filter { $0.kind == .video }.map(\.mid)) : [], newlyActive: newlyActive ? mids : [])
        }
    }

    @Test func aNewTrackIsOfferedAndBoundOnlyOnceTheClientAcceptedIt() throws {
        var r = Room()
        let mark = r.s.mark
        r.s.subscribe(r.viewer, to: "anchor", transport: r.receive)
        let sinks = r.s.addedSinks(since: mark)
        #expect(sinks.count == 2)
        #expect(r.s.binds(since: mark).isEmpty, "nothing is sent before the client can place it")
        let offered = try #require(r.offered(since: mark))
        #expect(offered.map(\.mid) == ["0", "1"] && offered.map(\.kind) == [.audio, .video])
        #expect(offered.map(\.sinkId) == sinks.map(\.id) && offered.map(\.ssrc) == sinks.map(\.outputSSRC))
        #expect(offered[1].rtxPayloadType != nil && offered[1].rtxSSRC != nil && offered[1].rtxSSRC != offered[1].ssrc)

        let answered = r.s.mark
        _ = r.s.record(actions: r.s.engine.subscriptionAnswered(transportId: r.receive, facts: r.acceptAll(offered)))
        let media = r.s.media(since: answered)
        #expect(media.contains(.setSinkRetransmission(sink: sinks[1].id, ssrc: offered[1].rtxSSRC!, payloadType: offered[1].rtxPayloadType!)))
        #expect(Set(r.s.binds(since: answered).map(\.sink)) == Set(sinks.map(\.id)))
        #expect(Set(r.s.binds(since: answered).map(\.source)) == Set(r.sources.map(\.id)))
        // The bind asks for the keyframe itself: nothing needs restarting.
        #expect(!media.contains { if case .restartSinkAtKeyframe = $0 { true } else { false } })
    }

    @Test func unsubscribingBeforeTheAnswerUndoesNothingInTheMediaPlane() throws {
        var r = Room()
        r.s.subscribe(r.viewer, to: "anchor", transport: r.receive)
        let offered = try #require(r.offered())
        let mark = r.s.mark
        r.s.unsubscribe(r.viewer, from: "anchor")
        let media = r.s.media(since: mark)
        #expect(!media.contains { if case .unbind = $0 { true } else { false } })
        #expect(media.filter { if case .removeSink = $0 { true } else { false } }.count == 2)
        #expect(r.offered(since: mark) == [], "the sections go inactive in the next offer")
        // The late answer binds nothing.
        let late = r.s.mark
        _ = r.s.record(actions: r.s.engine.subscriptionAnswered(transportId: r.receive, facts: r.acceptAll(offered)))
        #expect(r.s.binds(since: late).isEmpty)
    }

    @Test func aRepublishBeforeTheAnswerBindsTheNewTracksWhenItComes() throws {
        var r = Room()
        r.s.subscribe(r.viewer, to: "anchor", transport: r.receive)
        let offered = try #require(r.offered())
        r.s.publish(r.anchor)
        let republished = r.s.addedSources(since: 0).suffix(2).map(\.id)
        let mark = r.s.mark
        _ = r.s.record(actions: r.s.engine.subscriptionAnswered(transportId: r.receive, facts: r.acceptAll(offered)))
        #expect(Set(r.s.binds(since: mark).map(\.source)) == Set(republished))
    }

    @Test func aSectionTheClientDeclinedIsNeverBound() throws {
        var r = Room()
        r.s.subscribe(r.viewer, to: "anchor", transport: r.receive)
        let offered = try #require(r.offered())
        let mark = r.s.mark
        let audioOnly = SubscriptionAnswerFacts(
            slots: offered.map { OfferedSlot(mid: $0.mid, kind: $0.kind, isActive: true) }, accepted: [offered[0].mid], retransmission: [],
            newlyActive: [offered[0].mid])
        _ = r.s.record(actions: r.s.engine.subscriptionAnswered(transportId: r.receive, facts: audioOnly))
        #expect(r.s.binds(since: mark).map(\.sink) == [offered[0].sinkId])
    }

    @Test func aClashingPayloadTypeIsOfferedUnderAFreeOneAndTheSinkRewritesIt() throws {
        var s = Scenario()
        let first = s.enter("first")
        s.publish(first, tracks: [TrackDescription(kind: .video, ssrc: 1, payloadType: 96, codec: "VP8", clockRate: 90_000)])
        let second = s.enter("second")
        s.publish(
            second, tracks: [TrackDescription(kind: .video, ssrc: 2, payloadType: 96, codec: "H264", clockRate: 90_000, parameters: "packetization-mode=1")])
        let viewer = s.enter("viewer", role: .audience, visible: false)
        let receive = s.createTransport(for: viewer.session, kind: .webRTC)
        s.subscribe(viewer, to: "first", transport: receive)
        let mark = s.mark
        s.subscribe(viewer, to: "second", transport: receive)
        let sink = try #require(s.addedSinks(since: mark).first)
        let rewrites = s.media(since: mark).compactMap { if case .setSinkPayloadType(let id, let type) = $0 { (id, type) } else { nil } }
        #expect(rewrites.count == 1 && rewrites[0].0 == sink.id && rewrites[0].1 != 96 && (96...127).contains(rewrites[0].1))
    }
}

/// A receiving WebRTC transport whose client offered (a WHEP player): the player's mids and
/// payload types are used, and a track it cannot take is never sent.
@Suite struct PlayerTransportScenarioTests {
    static let layout = PlayerLayout(sections: [
        PlayerLayout.Section(
            mid: "a", kind: .audio,
            codecs: [
                PlayerLayout.Codec(payloadType: 109, name: "opus", clockRate: 48_000, channels: 2, formatParameters: nil, retransmissionPayloadType: nil)
            ]),
        PlayerLayout.Section(
            mid: "v", kind: .video,
            codecs: [
                PlayerLayout.Codec(payloadType: 120, name: "VP8", clockRate: 90_000, channels: nil, formatParameters: nil, retransmissionPayloadType: 121)
            ]),
    ])

    @Test func thePlayersMidsAndPayloadTypesAreWhatTheSinksSendWith() throws {
        var r = WebRTCSubscriberScenarioTests.Room()
        r.s.engine.adoptPlayerLayout(transportId: r.receive, layout: Self.layout)
        let mark = r.s.mark
        r.s.subscribe(r.viewer, to: "anchor", transport: r.receive)
        let offered = try #require(r.offered(since: mark))
        #expect(offered.map(\.mid) == ["a", "v"] && offered.map(\.payloadType) == [109, 120])
        #expect(offered[1].rtxPayloadType == 121 && offered[1].rtxSSRC != nil)
        let sinks = r.s.addedSinks(since: mark)
        let rewrites = r.s.media(since: mark).compactMap { if case .setSinkPayloadType(let sink, let type) = $0 { [sink: type] } else { nil } }
        #expect(rewrites == [[sinks[0].id: 109], [sinks[1].id: 120]], "the publisher's 111 and 96 are rewritten to the player's numbers")
        let answered = r.s.mark
        _ = r.s.record(actions: r.s.engine.subscriptionAnswered(transportId: r.receive, facts: r.acceptAll(offered)))
        #expect(Set(r.s.binds(since: answered).map(\.sink)) == Set(sinks.map(\.id)))
    }

    @Test func aCodecThePlayerDoesNotTakeIsNeverSent() throws {
        var s = Scenario()
        let anchor = s.enter("anchor")
        s.publish(
            anchor,
            tracks: [
                TrackDescription(kind: .audio, ssrc: 1, payloadType: 111, codec: "opus", clockRate: 48_000, channels: 2),
                TrackDescription(kind: .video, ssrc: 2, payloadType: 102, codec: "H264", clockRate: 90_000, parameters: "packetization-mode=1"),
            ])
        let viewer = s.enter("viewer", role: .audience, visible: false)
        let receive = s.createTransport(for: viewer.session, kind: .webRTC)
        s.engine.adoptPlayerLayout(transportId: receive, layout: Self.layout)
        let mark = s.mark
        s.subscribe(viewer, to: "anchor", transport: receive)
        let offered = s.log[mark...].compactMap { action -> [OfferedTrack]? in
            if case .subscriberTracks(let tracks) = action { tracks.tracks } else { nil }
        }.last
        #expect(offered?.map(\.kind) == [.audio], "only the audio the player takes")
        #expect(s.binds(since: mark).isEmpty)
    }
}
