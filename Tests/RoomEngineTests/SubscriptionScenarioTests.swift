import Protocol
import RoomEngine
import Testing

/// Subscriptions: explicit and automatic subscribe, the failure states, partial unsubscribe,
/// sinks ending with the publisher, and output SSRCs.
@Suite struct SubscriptionScenarioTests {
    @Test func explicitSubscribeReturnsRelayTracksAndEmitsOnStreamSubscribed() throws {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        let sources = s.addedSources()
        let viewer = s.enter("viewer", role: .audience, visible: false)
        let mark = s.mark

        let result = try #require(s.subscribe(viewer, to: "guest").value)

        #expect(result.state == .success)
        #expect(result.tracks.map(\.kind) == [.audio, .video])
        #expect(Set(result.tracks.map(\.ssrc)).isDisjoint(with: guest.tracks().map(\.ssrc)))
        #expect(!result.tracks.contains { $0.ssrc == 0 })
        let declared = guest.tracks()
        for (track, description) in zip(result.tracks, declared) {
            #expect(track.payloadType == description.payloadType)
            #expect(track.codec == description.codec)
            #expect(track.clockRate == description.clockRate)
            #expect(track.channels == description.channels)
            #expect(track.parameters == description.parameters)
            #expect(track.transportId == viewer.transport)
        }
        #expect(s.events(for: viewer, since: mark) == [.streamSubscribed(result)])
        #expect(s.events(for: guest, since: mark).isEmpty)
        let sinks = s.addedSinks(since: mark)
        #expect(sinks.map(\.outputSSRC) == result.tracks.map(\.ssrc))
        #expect(
            s.media(since: mark) == [
                .addSink(sinks[0]), .bind(sink: sinks[0].id, source: sources[0].id),
                .addSink(sinks[1]), .bind(sink: sinks[1].id, source: sources[1].id),
            ])
    }

    @Test func separateAudioAndVideoTransports() throws {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        let viewer = s.enter("viewer", role: .audience, visible: false)
        let audioTransport = s.createTransport(for: viewer.session)
        let result = try #require(s.subscribe(viewer, to: "guest", audioTransport: audioTransport).value)
        #expect(result.tracks.map(\.transportId) == [audioTransport, viewer.transport])
    }

    @Test func subscribeToAMissingUserIsFailedNotInRoom() {
        var s = Scenario()
        let viewer = s.enter("viewer")
        _ = s.enter("ghost", visible: false)
        for target in ["nobody", "ghost"] {
            let mark = s.mark
            let outcome = s.subscribe(viewer, to: target)
            #expect(outcome.error?.code == .streamNotFound)
            #expect(
                s.events(for: viewer, since: mark) == [
                    .streamSubscribed(SubscribeStreamResult(roomId: Scenario.room, userId: target, streamIndex: .main, state: .failedNotInRoom, tracks: []))
                ])
            #expect(s.media(since: mark).isEmpty)
        }
    }

    @Test func subscribeToAnUnpublishedStreamIsFailedStreamNotFound() {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        let viewer = s.enter("viewer")
        let mark = s.mark
        let outcome = s.subscribe(viewer, to: "guest", .screen)
        #expect(outcome.error?.code == .streamNotFound)
        #expect(
            s.events(for: viewer, since: mark) == [
                .streamSubscribed(SubscribeStreamResult(roomId: Scenario.room, userId: "guest", streamIndex: .screen, state: .failedStreamNotFound, tracks: []))
            ])
        #expect(SubscribeState.failedStreamNotFound.rawValue == 2)
    }

    @Test func subscribeOverTheLimitIsFailedOverLimit() {
        var limits = RoomLimits()
        limits.maximumSubscriptionsPerUser = 1
        var s = Scenario(limits: limits)
        let a = s.enter("a")
        let b = s.enter("b")
        s.publish(a)
        s.publish(b)
        let viewer = s.enter("viewer", role: .audience, visible: false)
        #expect(s.subscribe(viewer, to: "a").value != nil)
        let mark = s.mark
        let outcome = s.subscribe(viewer, to: "b")
        #expect(outcome.error?.code == .overSubscribeLimit)
        #expect(outcome.error?.code.rawValue == -1070)
        #expect(s.events(for: viewer, since: mark).compactMap(\.subscribed).map(\.state) == [.failedOverLimit])
        #expect(SubscribeState.failedOverLimit.rawValue == 3)
        #expect(s.media(since: mark).isEmpty)
        // Subscribing again to the same stream replaces, it does not count twice.
        #expect(s.subscribe(viewer, to: "a", mediaType: MediaType.audio).value?.tracks.map(\.kind) == [.audio])
    }

    @Test func subscribeWithoutGrantIsNoSubscribePermission() {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        let viewer = s.enter("viewer", role: .audience, visible: false, grants: s.grants(subscribe: false))
        let outcome = s.subscribe(viewer, to: "guest")
        #expect(outcome.error?.code == .noSubscribePermission)
        #expect(outcome.error?.code.rawValue == -1003)
        #expect(outcome.actions.isEmpty)
    }

    @Test func subscribeWithoutGrantSkipsAutoSubscribe() {
        var s = Scenario()
        let guest = s.enter("guest")
        _ = s.enter("viewer", role: .audience, visible: false, autoSubscribe: true, grants: s.grants(subscribe: false))
        let mark = s.mark
        s.publish(guest)
        #expect(s.addedSinks(since: mark).isEmpty)
    }

    struct AutoCase: Sendable, CustomTestStringConvertible {
        var audio: Bool
        var video: Bool
        var kinds: [TrackKind]
        var testDescription: String { "audio \(audio) video \(video)" }
    }

    @Test(arguments: [
        AutoCase(audio: true, video: true, kinds: [.audio, .video]),
        AutoCase(audio: true, video: false, kinds: [.audio]),
        AutoCase(audio: false, video: true, kinds: [.video]),
        AutoCase(audio: false, video: false, kinds: []),
    ])
    func autoSubscribeFollowsTheRoomConfig(_ config: AutoCase) {
        var s = Scenario()
        let viewer = s.connect("viewer")
        s.join(
            viewer, role: .audience, visible: false,
            config: RoomConfig(
                autoSubscribeAudio: config.audio, autoSubscribeVideo: config.video, subscribeTransportId: viewer.transport))
        let guest = s.enter("guest")
        let mark = s.mark
        s.publish(guest)
        let sinks = s.addedSinks(since: mark)
        #expect(sinks.map(\.kind) == config.kinds)
        #expect(sinks.allSatisfy { $0.transportId == viewer.transport })
        let subscribed = s.events(for: viewer, since: mark).compactMap(\.subscribed)
        #expect(subscribed.flatMap(\.tracks).map(\.kind) == config.kinds)
        #expect(subscribed.count == (config.kinds.isEmpty ? 0 : 1))
    }

    @Test func autoSubscribeOnJoinCoversStreamsAlreadyPublished() {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        s.publish(guest, .screen, tracks: guest.tracks(.screen, mediaType: MediaType.video))
        let viewer = s.connect("viewer")
        let mark = s.mark
        s.join(viewer, role: .audience, visible: false, config: RoomConfig(autoSubscribeVideo: false, subscribeTransportId: viewer.transport))
        // Audio only: the main stream's audio; the video-only screen stream yields an empty result.
        #expect(s.addedSinks(since: mark).map(\.kind) == [.audio])
        let subscribed = s.events(for: viewer, since: mark).compactMap(\.subscribed)
        #expect(subscribed.map(\.streamIndex) == [.main, .screen])
        #expect(subscribed.map { $0.tracks.count } == [1, 0])
    }

    @Test func unsubscribingOneKindKeepsTheOther() {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        let viewer = s.enter("viewer", role: .audience, visible: false)
        s.subscribe(viewer, to: "guest")
        let sinks = s.addedSinks()
        var mark = s.mark
        #expect(s.unsubscribe(viewer, from: "guest", mediaType: MediaType.video).value != nil)
        #expect(s.media(since: mark) == [.unbind(sink: sinks[1].id), .removeSink(sinks[1].id)])

        // A republish now rebinds only the audio sink.
        mark = s.mark
        s.publish(guest)
        let rebound = s.events(for: viewer, since: mark).compactMap(\.subscribed)
        #expect(rebound.first?.tracks.map(\.kind) == [.audio])
        #expect(rebound.first?.tracks.first?.ssrc == sinks[0].outputSSRC)

        mark = s.mark
        #expect(s.unsubscribe(viewer, from: "guest", mediaType: MediaType.audio).value != nil)
        #expect(s.media(since: mark) == [.unbind(sink: sinks[0].id), .removeSink(sinks[0].id)])
        #expect(s.unsubscribe(viewer, from: "guest").error?.code == .wrongState)
    }

    @Test func publisherLeavingRemovesEverySinkOnce() {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        s.publish(guest, .screen)
        let viewers = [
            s.enter("v1", role: .audience, visible: false, autoSubscribe: true),
            s.enter("v2", role: .audience, visible: false),
            s.enter("v3", visible: true, autoSubscribe: true),
        ]
        s.subscribe(viewers[1], to: "guest", .screen)
        let sinks = s.addedSinks()
        let sources = s.addedSources()
        #expect(sinks.count == 10)
        let mark = s.mark

        s.leave(guest)

        let removed = s.removedSinks(since: mark)
        #expect(removed.count == sinks.count)
        #expect(Set(removed) == Set(sinks.map(\.id)))
        #expect(s.removedSources(since: mark).sorted() == sources.map(\.id).sorted())
        // Every sink is unbound before it is removed, and nothing is unbound or removed twice.
        let media = s.media(since: mark)
        for sink in sinks {
            let unbind = media.firstIndex(of: .unbind(sink: sink.id))
            let remove = media.firstIndex(of: .removeSink(sink.id))
            #expect(unbind != nil && remove != nil && unbind! < remove!)
            #expect(media.filter { $0 == .unbind(sink: sink.id) }.count == 1)
        }
        // The room forgets the subscriptions: later publishers with the same userId start fresh.
        let back = s.enter("guest")
        let again = s.mark
        s.publish(back)
        let fresh = s.addedSinks(since: again)
        #expect(fresh.count == 4)
        #expect(Set(fresh.map(\.id)).isDisjoint(with: sinks.map(\.id)))
    }

    @Test func subscriberLeavingRemovesItsOwnSinks() {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        let viewer = s.enter("viewer", role: .audience, visible: false, autoSubscribe: true)
        let sinks = s.addedSinks()
        let mark = s.mark
        s.leave(viewer)
        #expect(s.media(since: mark) == sinks.flatMap { [MediaAction.unbind(sink: $0.id), .removeSink($0.id)] })
        #expect(s.events(for: guest, since: mark).isEmpty)
    }

    @Test func closingTheSubscribeTransportRemovesItsSinksOnly() {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        let viewer = s.enter("viewer", role: .audience, visible: false)
        let audioTransport = s.createTransport(for: viewer.session)
        s.subscribe(viewer, to: "guest", audioTransport: audioTransport)
        let sinks = s.addedSinks()
        #expect(sinks.map(\.transportId) == [audioTransport, viewer.transport])
        let mark = s.mark
        s.closeTransport(viewer.session, audioTransport)
        #expect(s.media(since: mark) == [.unbind(sink: sinks[0].id), .removeSink(sinks[0].id), .closeTransport(audioTransport)])
        #expect(s.events(for: guest, since: mark).isEmpty)
        // The video sink still follows a republish.
        let again = s.mark
        s.publish(guest)
        #expect(s.events(for: viewer, since: again).compactMap(\.subscribed).first?.tracks.map(\.kind) == [.video])
    }

    @Test func outputSSRCsAreUniqueAcrossSubscribers() {
        var s = Scenario()
        let publishers = (0..<3).map { s.enter("p\($0)") }
        for publisher in publishers { s.publish(publisher) }
        for index in 0..<20 { _ = s.enter("v\(index)", role: .audience, visible: false, autoSubscribe: true) }
        let sinks = s.addedSinks()
        #expect(sinks.count == 3 * 20 * 2)
        #expect(Set(sinks.map(\.outputSSRC)).count == sinks.count)
        #expect(Set(sinks.map(\.id)).count == sinks.count)
        let published = Set(publishers.flatMap { $0.tracks().map(\.ssrc) })
        #expect(Set(sinks.map(\.outputSSRC)).isDisjoint(with: published))
        #expect(!sinks.contains { $0.outputSSRC == 0 })
    }

    @Test func sameSeedGivesTheSameOutputSSRCs() {
        func run() -> [UInt32] {
            var s = Scenario(seed: 7)
            let guest = s.enter("guest")
            s.publish(guest)
            _ = s.enter("viewer", role: .audience, visible: false, autoSubscribe: true)
            return s.addedSinks().map(\.outputSSRC)
        }
        #expect(run() == run())
        #expect(run().count == 2)
    }
}
