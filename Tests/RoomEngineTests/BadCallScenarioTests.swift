import Protocol
import RoomEngine
import Testing

/// Calls the engine must refuse (rooms not joined, foreign transports, invalid track lists) and
/// the room server's kick and dismiss.
@Suite struct BadCallScenarioTests {
    enum Call: String, CaseIterable, Sendable {
        case leave, publish, unpublish, subscribe, unsubscribe, setVisibility, switchRole, updateToken
    }

    /// Makes `call` for `client` in `room`, returning the error and the actions.
    static func perform(_ call: Call, _ client: Client, room: String, in s: inout Scenario) -> (RelayError?, [EngineAction]) {
        switch call {
        case .leave:
            let o = s.leave(client, room: room)
            return (o.error, o.actions)
        case .publish:
            let o = s.publish(client, room: room)
            return (o.error, o.actions)
        case .unpublish:
            let o = s.unpublish(client, room: room)
            return (o.error, o.actions)
        case .subscribe:
            let o = s.subscribe(client, to: "host", room: room)
            return (o.error, o.actions)
        case .unsubscribe:
            let o = s.unsubscribe(client, from: "host", room: room)
            return (o.error, o.actions)
        case .setVisibility:
            let o = s.setVisible(client, false, room: room)
            return (o.error, o.actions)
        case .switchRole:
            let o = s.switchRole(client, to: .audience, room: room)
            return (o.error, o.actions)
        case .updateToken:
            let o = s.updateToken(client, grants: s.grants(), room: room)
            return (o.error, o.actions)
        }
    }

    @Test(arguments: Call.allCases)
    func everyCallOnARoomNotJoinedIsNotInRoom(_ call: Call) {
        var s = Scenario()
        let host = s.enter("host")
        s.publish(host)
        let stranger = s.connect("stranger")
        s.join(stranger, room: "elsewhere")
        let mark = s.mark
        for room in [Scenario.room, "no-such-room"] {
            let (error, actions) = Self.perform(call, stranger, room: room, in: &s)
            #expect(error?.code == .notInRoom, "\(call) in \(room)")
            #expect(error?.message.contains(room) == true)
            #expect(actions.isEmpty)
        }
        #expect(s.events(for: host, since: mark).isEmpty)
        #expect(s.engine.memberCount(roomId: Scenario.room) == 1)
        #expect(s.engine.roomIds == ["elsewhere", Scenario.room].sorted())
    }

    @Test func publishWithATransportOfAnotherSessionIsTransportNotFound() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        let mark = s.mark
        let outcome = s.publish(guest, transport: host.transport)
        #expect(outcome.error?.code == .transportNotFound)
        #expect(outcome.error?.message.contains("tracks[0]") == true)
        #expect(s.publish(guest, transport: 9_999).error?.code == .transportNotFound)
        // A per-track transport is checked too.
        var tracks = guest.tracks()
        tracks[1].transportId = host.transport
        let perTrack = s.publish(guest, tracks: tracks)
        #expect(perTrack.error?.code == .transportNotFound)
        #expect(perTrack.error?.message.contains("tracks[1]") == true)
        #expect(s.log.count == mark)
    }

    @Test func subscribeOnAForeignTransportIsTransportNotFound() {
        var s = Scenario()
        let host = s.enter("host")
        s.publish(host)
        let viewer = s.enter("viewer", role: .audience, visible: false)
        #expect(s.subscribe(viewer, to: "host", transport: host.transport).error?.code == .transportNotFound)
        #expect(s.subscribe(viewer, to: "host", audioTransport: host.transport).error?.code == .transportNotFound)
        #expect(s.subscribe(viewer, to: "viewer").error?.code == .invalidParams)
        #expect(s.subscribe(viewer, to: "host", mediaType: 4).error?.code == .invalidParams)
        #expect(s.addedSinks().isEmpty)
    }

    struct TrackCase: Sendable, CustomTestStringConvertible {
        var name: String
        var tracks: @Sendable (Client) -> [TrackDescription]
        var code: ErrorCode
        var position: Int
        var testDescription: String { name }
    }

    static let trackCases: [TrackCase] = [
        TrackCase(
            name: "ssrc 0",
            tracks: { c in
                var t = c.tracks()
                t[1].ssrc = 0
                return t
            }, code: .invalidParams, position: 1),
        TrackCase(
            name: "payload type 200",
            tracks: { c in
                var t = c.tracks()
                t[0].payloadType = 200
                return t
            }, code: .invalidParams, position: 0),
        TrackCase(
            name: "unknown codec",
            tracks: { c in
                var t = c.tracks()
                t[1].codec = "H265"
                return t
            }, code: .unsupported, position: 1),
        TrackCase(
            name: "audio codec on video",
            tracks: { c in
                var t = c.tracks()
                t[1].codec = "opus"
                return t
            }, code: .unsupported, position: 1),
        TrackCase(
            name: "two audio tracks",
            tracks: { c in
                c.tracks(mediaType: MediaType.audio) + [TrackDescription(kind: .audio, ssrc: c.ssrcBase + 7, payloadType: 0, codec: "PCMU", clockRate: 8000)]
            },
            code: .invalidParams, position: 1),
        TrackCase(
            name: "duplicate SSRC",
            tracks: { c in
                var t = c.tracks()
                t[1].ssrc = t[0].ssrc
                return t
            }, code: .invalidParams, position: 1),
        TrackCase(
            name: "clock rate 0",
            tracks: { c in
                var t = c.tracks()
                t[0].clockRate = 0
                return t
            }, code: .invalidParams, position: 0),
        TrackCase(
            name: "nine channels",
            tracks: { c in
                var t = c.tracks()
                t[0].channels = 9
                return t
            }, code: .invalidParams, position: 0),
    ]

    @Test(arguments: trackCases)
    func invalidTracksAreRefusedNamingTheTrack(_ bad: TrackCase) {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        let mark = s.mark
        let outcome = s.publish(guest, tracks: bad.tracks(guest))
        #expect(outcome.error?.code == bad.code)
        #expect(outcome.error?.message.contains("tracks[\(bad.position)]") == true, "\(outcome.error?.message ?? "no error")")
        #expect(outcome.actions.isEmpty)
        #expect(s.events(for: host, since: mark).isEmpty)
        // The refused declaration is not remembered: autoPublish has nothing to bring back.
        s.switchRole(guest, to: .audience)
        let back = s.mark
        s.switchRole(guest, to: .anchor)
        #expect(s.media(since: back).isEmpty)
    }

    @Test func emptyTrackListIsInvalid() {
        var s = Scenario()
        let guest = s.enter("guest")
        #expect(s.publish(guest, tracks: []).error?.code == .invalidParams)
    }

    @Test func ssrcAlreadyPublishedOnTheTransportIsRefused() {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        let outcome = s.publish(guest, .screen, tracks: [guest.tracks()[1]])
        #expect(outcome.error?.code == .invalidParams)
        #expect(outcome.error?.message.contains("tracks[0]") == true)
        // Republishing the same stream with the same SSRCs is fine.
        #expect(s.publish(guest).value != nil)
    }

    @Test func publisherLimitIsOverPublishLimit() {
        var limits = RoomLimits()
        limits.maximumPublishersPerRoom = 1
        var s = Scenario(limits: limits)
        let a = s.enter("a")
        let b = s.enter("b")
        s.publish(a)
        #expect(s.publish(b).error?.code == .overPublishLimit)
        #expect(s.publish(b).error?.code.rawValue == -1080)
        // The one publisher may add its screen stream.
        #expect(s.publish(a, .screen).value != nil)
    }

    @Test func kickTellsTheUserAndTheRoom() {
        var s = Scenario()
        let host = s.enter("host")
        let watcher = s.enter("watcher", role: .audience, visible: false)
        let guest = s.enter("guest")
        s.publish(guest)
        let mark = s.mark
        #expect(s.kick("guest").value != nil)
        let expected: [ServerEvent] = [.unpublished("guest", .other), .left("guest", .kickedByAdmin)]
        #expect(s.events(for: host, since: mark) == expected)
        #expect(s.events(for: watcher, since: mark) == expected)
        #expect(s.events(for: guest, since: mark) == [.exit(.kicked, code: .kickedOut)])
        #expect(s.exits(for: guest, since: mark).map(\.code) == [-1006])
        #expect(!s.engine.isJoined(session: guest.session, roomId: Scenario.room))
        #expect(s.kick("guest").error?.code == .streamNotFound)
    }

    @Test func kickingAnInvisibleUserIsSilentForOthers() {
        var s = Scenario()
        let host = s.enter("host")
        let fan = s.enter("fan", role: .audience, visible: false)
        let mark = s.mark
        s.kick("fan")
        #expect(s.events(for: host, since: mark).isEmpty)
        #expect(s.events(for: fan, since: mark) == [.exit(.kicked, code: .kickedOut)])
    }

    @Test func dismissEndsEveryMembership() {
        var s = Scenario()
        let host = s.enter("host", autoSubscribe: true)
        let guest = s.enter("guest")
        s.publish(guest)
        let fan = s.enter("fan", role: .audience, visible: false, autoSubscribe: true)
        let sinks = s.addedSinks()
        let sources = s.addedSources()
        let other = s.enter("other", grants: nil)
        // Someone in another room is untouched.
        let outsider = s.connect("outsider")
        s.join(outsider, room: "second")
        let mark = s.mark

        #expect(s.dismiss().value != nil)

        for member in [host, guest, fan, other] {
            let exits = s.events(for: member, since: mark).filter { if case .exitRoom = $0 { true } else { false } }
            #expect(exits == [.exit(.roomDismissed, code: .roomDismissed)], "\(member.userId)")
            #expect(s.events(for: member, since: mark).last == .exit(.roomDismissed, code: .roomDismissed))
            #expect(s.engine.rooms(of: member.session).isEmpty)
        }
        #expect(s.exits(for: host, since: mark).map(\.code) == [-1011])
        #expect(Set(s.removedSinks(since: mark)) == Set(sinks.map(\.id)))
        #expect(s.removedSinks(since: mark).count == sinks.count)
        #expect(s.removedSources(since: mark).sorted() == sources.map(\.id).sorted())
        #expect(s.engine.roomIds == ["second"])
        #expect(s.events(for: outsider, since: mark).isEmpty)
        #expect(s.dismiss().error?.code == .streamNotFound)
    }
}
