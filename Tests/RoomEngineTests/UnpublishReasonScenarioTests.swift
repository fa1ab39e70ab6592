import Protocol
import RoomEngine
import Testing

/// Every way a publication ends and the reason others see: explicit unpublish, republish,
/// keep-alive timeout, a closed transport, a dropped connection and an expired token.
@Suite struct UnpublishReasonScenarioTests {
    @Test func explicitUnpublishIsReasonZero() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        #expect(s.publish(guest).value == PublishStreamResult(roomId: Scenario.room, streamIndex: .main, mediaType: MediaType.audioAndVideo))
        let sources = s.addedSources()
        let mark = s.mark
        #expect(s.unpublish(guest).value != nil)
        #expect(s.events(for: host, since: mark) == [.unpublished("guest", .unpublish)])
        #expect(s.events(for: guest, since: mark).isEmpty)
        #expect(s.media(since: mark) == sources.map { .removeSource($0.id) })
        #expect(s.unpublish(guest).error?.code == .wrongState)
    }

    @Test func republishKeepsSinksAndRebindsThemToNewSources() {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        let old = s.addedSources()
        let viewer = s.enter("viewer", role: .audience, visible: false)
        let other = s.enter("other", role: .audience, visible: false)
        let viewerTracks = s.subscribe(viewer, to: "guest").value?.tracks ?? []
        let otherTracks = s.subscribe(other, to: "guest").value?.tracks ?? []
        let sinks = s.addedSinks()
        #expect(sinks.count == 4)
        let mark = s.mark

        // The same stream again, with new SSRCs and an H264 video track.
        var tracks = guest.tracks()
        tracks[0].ssrc += 500
        tracks[1] = TrackDescription(kind: .video, ssrc: tracks[1].ssrc + 500, payloadType: 102, codec: "H264", clockRate: 90_000)
        #expect(s.publish(guest, tracks: tracks).value?.mediaType == MediaType.audioAndVideo)

        let new = s.addedSources(since: mark)
        #expect(new.map(\.ssrc) == tracks.map(\.ssrc))
        #expect(Set(new.map(\.id)).isDisjoint(with: old.map(\.id)))
        let audio = { (list: [SinkTrack]) in list.filter { $0.kind == .audio } }
        let video = { (list: [SinkTrack]) in list.filter { $0.kind == .video } }
        var expected: [MediaAction] = sinks.map { .unbind(sink: $0.id) }
        expected += old.map { .removeSource($0.id) }
        expected += new.map { .addSource($0) }
        for (a, v) in zip(audio(sinks), video(sinks)) {
            expected += [.bind(sink: a.id, source: new[0].id), .bind(sink: v.id, source: new[1].id)]
        }
        #expect(s.media(since: mark) == expected)

        #expect(
            s.events(for: viewer, since: mark).filter { $0.subscribed == nil } == [
                .unpublished("guest", .republish), .published("guest"),
            ])
        let viewerAfter = s.events(for: viewer, since: mark).compactMap(\.subscribed).first?.tracks ?? []
        let otherAfter = s.events(for: other, since: mark).compactMap(\.subscribed).first?.tracks ?? []
        #expect(viewerAfter.map(\.ssrc) == viewerTracks.map(\.ssrc))
        #expect(otherAfter.map(\.ssrc) == otherTracks.map(\.ssrc))
        #expect(viewerAfter.last?.codec == "H264")
        #expect(viewerAfter.last?.payloadType == 102)
        #expect(s.events(for: guest, since: mark).isEmpty)
    }

    @Test func keepAliveUnpublishesAfterTenSilentSeconds() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        s.publish(guest)
        let sources = s.addedSources()
        let mark = s.mark
        s.advance(seconds: 9.999)
        #expect(s.tick().isEmpty)
        s.advance(seconds: 0.001)
        s.tick()
        #expect(s.events(for: host, since: mark) == [.unpublished("guest", .keepLiveFailed)])
        #expect(s.media(since: mark) == sources.map { .removeSource($0.id) })
        // Still in the room, visible, and free to publish again.
        s.advance(seconds: 30)
        #expect(s.tick().isEmpty)
        #expect(s.publish(guest).value != nil)
    }

    @Test func mediaActivityPostponesTheKeepAlive() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        s.publish(guest)
        let sources = s.addedSources()
        let mark = s.mark
        s.advance(seconds: 9)
        s.mediaArrives(on: [sources[1]])
        s.advance(seconds: 1)
        #expect(s.tick().isEmpty)
        s.advance(seconds: 8.999)
        #expect(s.tick().isEmpty)
        s.advance(seconds: 0.001)
        s.tick()
        #expect(s.events(for: host, since: mark) == [.unpublished("guest", .keepLiveFailed)])
    }

    @Test func lateActivityReportsDoNotRewindTheClock() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        s.publish(guest)
        let sources = s.addedSources()
        s.advance(seconds: 5)
        s.mediaArrives(on: sources)
        s.engine.recordMediaActivity(sourceId: sources[0].id, at: Scenario.at(seconds: 1))
        let mark = s.mark
        s.advance(seconds: 9.5)
        #expect(s.tick().isEmpty)
        s.advance(seconds: 0.5)
        s.tick()
        #expect(s.events(for: host, since: mark) == [.unpublished("guest", .keepLiveFailed)])
    }

    @Test func closingThePublishingTransportIsReasonOther() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        s.publish(guest)
        let screenTransport = s.createTransport(for: guest.session)
        s.publish(guest, .screen, transport: screenTransport)
        let mark = s.mark
        s.closeTransport(guest.session, guest.transport)
        #expect(s.events(for: host, since: mark) == [.unpublished("guest", .other)])
        #expect(UnpublishReason.other.rawValue == 5)
        #expect(!s.engine.ownsTransport(session: guest.session, transportId: guest.transport))
        #expect(s.engine.transportCount(session: guest.session) == 1)
        // The transport is gone, so publishing on it fails.
        #expect(s.publish(guest).error?.code == .transportNotFound)
    }

    @Test func closingEveryTransportUnpublishesStreamsInStreamOrder() {
        // Two streams on one transport: the events come in main, screen order on every run.
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        s.publish(guest, .screen)
        s.publish(guest, .main)
        let mark = s.mark
        s.closeTransport(guest.session, guest.transport)
        #expect(s.events(for: host, since: mark) == [.unpublished("guest", .other, .main), .unpublished("guest", .other, .screen)])
    }

    @Test func disconnectIsClientDisconnectedThenDropped() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        let extra = s.createTransport(for: guest.session)
        s.publish(guest)
        let mark = s.mark
        let answer = s.disconnect(guest)
        #expect(answer.transports == [guest.transport, extra])
        #expect(s.events(for: host, since: mark) == [.unpublished("guest", .clientDisconnected), .left("guest", .dropped)])
        #expect(s.events(for: guest, since: mark).isEmpty)
        #expect(s.engine.transportCount(session: guest.session) == 0)
        #expect(s.engine.memberCount(roomId: Scenario.room) == 1)
    }

    @Test func leavingWhilePublishingIsClientDisconnectedThenQuit() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        s.publish(guest)
        let mark = s.mark
        s.leave(guest)
        #expect(s.events(for: host, since: mark) == [.unpublished("guest", .clientDisconnected), .left("guest", .quit)])
    }

    @Test func tokenExpiryWarnsThenEndsMembership() {
        var s = Scenario()
        let host = s.enter("host", grants: s.grants(validFor: 3600))
        let guest = s.enter("guest", grants: s.grants(validFor: 120))
        s.publish(guest)
        let sources = s.addedSources()
        let expiresAt = Scenario.at(seconds: 120).seconds
        let mark = s.mark

        // One tick a second with media flowing; the warning comes at 90 s, once.
        var warnedAt: [Double] = []
        for second in 1...119 {
            s.advance(seconds: 1)
            s.mediaArrives(on: sources)
            if !s.tick().isEmpty { warnedAt.append(Double(second)) }
        }
        #expect(warnedAt == [90])
        #expect(
            s.events(for: guest, since: mark) == [
                .tokenWillExpire(TokenWillExpireEvent(roomId: Scenario.room, expiresAt: expiresAt, remainingSeconds: 30))
            ])
        #expect(s.events(for: host, since: mark).isEmpty)

        let expiry = s.mark
        s.advance(seconds: 1)
        s.tick()
        #expect(s.events(for: host, since: expiry) == [.unpublished("guest", .privilegeTokenExpired), .left("guest", .dropped)])
        #expect(s.events(for: guest, since: expiry) == [.exit(.tokenExpired, code: .tokenExpired)])
        #expect(s.exits(for: guest, since: expiry).first?.reason.rawValue == 3)
        #expect(s.exits(for: guest, since: expiry).first?.code == -1009)
        #expect(!s.engine.isJoined(session: guest.session, roomId: Scenario.room))
    }

    @Test func updateTokenResetsTheWarning() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest", grants: s.grants(validFor: 60))
        let mark = s.mark
        s.advance(seconds: 30)
        s.tick()
        #expect(s.events(for: guest, since: mark).count == 1)

        // Refreshed at 40 s with a token valid until 100 s.
        s.advance(seconds: 10)
        #expect(s.updateToken(guest, grants: s.grants(validFor: 60)).value != nil)
        let refreshed = s.mark
        s.advance(seconds: 20)
        #expect(s.tick().isEmpty)  // 60 s: the old expiry passes harmlessly
        s.advance(seconds: 9.999)
        #expect(s.tick().isEmpty)
        s.advance(seconds: 0.001)  // 70 s: 30 s before the new expiry
        s.tick()
        #expect(
            s.events(for: guest, since: refreshed) == [
                .tokenWillExpire(TokenWillExpireEvent(roomId: Scenario.room, expiresAt: Scenario.at(seconds: 100).seconds, remainingSeconds: 30))
            ])
        #expect(s.events(for: host, since: mark).isEmpty)
        #expect(s.engine.isJoined(session: guest.session, roomId: Scenario.room))
    }

    @Test func updateTokenWithoutPublishGrantUnpublishesWithPrivilegeTokenExpired() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        s.publish(guest)
        let mark = s.mark
        s.updateToken(guest, grants: s.grants(publish: false))
        #expect(s.events(for: host, since: mark) == [.unpublished("guest", .privilegeTokenExpired)])
        #expect(s.publish(guest).error?.code == .noPublishPermission)
    }
}
