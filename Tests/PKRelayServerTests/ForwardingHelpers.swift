import Foundation
import MediaPlane
import PKRelayClient
import PKRelayServer
import Protocol
import SecureTransport
import Testing

/// A viewer for the forwarding and PK tests: a connection with one receiving transport that
/// joins a room invisibly, auto-subscribing on that transport to everything published there.
final class Viewer {
    let name: String
    let roomId: String
    let client: ControlClient
    let endpoint: MediaEndpoint

    private init(name: String, roomId: String, client: ControlClient, endpoint: MediaEndpoint) {
        self.name = name
        self.roomId = roomId
        self.client = client
        self.endpoint = endpoint
    }

    /// Connects, opens a transport connected with the endpoint's address, and joins invisibly
    /// as audience; with `autoSubscribe` the transport is the room's `subscribeTransportId`.
    static func join(_ relay: TestRelay, room: String, user: String, profile: SRTPProfile = .aeadAES128GCM, autoSubscribe: Bool = true) async throws -> Viewer {
        let client = try await relay.connect()
        let endpoint = try await MediaHelpers.openEndpoint(client, profile: profile, latch: false)
        let joined: JoinRoomResult = try await client.request(
            "joinRoom",
            JoinRoomParams(
                token: TestRelay.token(room: room, user: user), roomId: room, userId: user, role: .audience, visible: false,
                roomConfig: RoomConfig(subscribeTransportId: autoSubscribe ? endpoint.transportId : nil)))
        precondition(joined.visible == false)
        return Viewer(name: user, roomId: room, client: client, endpoint: endpoint)
    }

    /// The number of events received so far: a mark for ``ForwardingHelpers/waitForSequence``.
    func mark() async -> Int { await client.eventCount }

    /// Subscribes explicitly to `publisher`'s main stream and returns the answer.
    func subscribe(to publisher: String) async throws -> SubscribeStreamResult {
        try await client.request(
            "subscribeStream", SubscribeStreamParams(roomId: roomId, userId: publisher, streamIndex: .main, transportId: endpoint.transportId))
    }

    /// Waits for the first `onStreamSubscribed` after `mark` that delivers `publisher`'s tracks.
    func subscription(of publisher: String, after mark: Int, timeout: Duration = .seconds(5)) async throws -> TrackSSRCs {
        let events = try await ForwardingHelpers.waitForSequence(
            client, from: mark, "\(name): tracks of \(publisher)", timeout: timeout,
            [
                { $0.streamSubscribed.map { $0.userId == publisher && $0.state == .success && !$0.tracks.isEmpty } ?? false }
            ])
        let result = events[0].streamSubscribed!
        for track in result.tracks { precondition(track.transportId == endpoint.transportId) }
        return TrackSSRCs(video: result.tracks.first { $0.kind == .video }?.ssrc, audio: result.tracks.first { $0.kind == .audio }?.ssrc)
    }

    func received(_ ssrc: UInt32?) -> [ReceivedRTPPacket] {
        guard let ssrc else { return [] }
        return endpoint.receivedRTP(ssrc: ssrc)
    }

    func close() async {
        endpoint.close()
        await client.close()
    }
}

/// The SSRCs the relay answered for one subscription.
struct TrackSSRCs: Hashable, CustomStringConvertible {
    var video: UInt32?
    var audio: UInt32?
    var all: [UInt32] { [video, audio].compactMap { $0 } }
    var description: String { "video \(video.map(String.init) ?? "-"), audio \(audio.map(String.init) ?? "-")" }
}

enum ForwardingHelpers {
    /// Waits (polling the event log every 10 ms) until the events received after index `mark`
    /// contain events matching `steps`, in that order (others may lie between); returns them.
    @discardableResult
    static func waitForSequence(
        _ client: ControlClient, from mark: Int, _ what: String, timeout: Duration = .seconds(5), _ steps: [(ReceivedEvent) -> Bool]
    ) async throws -> [ReceivedEvent] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let log = await client.events()
            if let found = match(Array(log.dropFirst(mark)), steps) { return found }
            guard ContinuousClock.now < deadline else {
                let names = log.dropFirst(mark).map { $0.text }.suffix(12).joined(separator: "\n")
                throw TimeoutError(duration: timeout, what: "\(what); events since the mark:\n\(names)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The first events matching `steps` in order, or nil.
    static func match(_ events: [ReceivedEvent], _ steps: [(ReceivedEvent) -> Bool]) -> [ReceivedEvent]? {
        var found: [ReceivedEvent] = []
        var index = events.startIndex
        for step in steps {
            guard let hit = events[index...].firstIndex(where: step) else { return nil }
            found.append(events[hit])
            index = hit + 1
        }
        return found
    }

    /// Steps for "`userId` appeared": onUserJoined (forwarded from `from`), then onUserPublishStream.
    static func appeared(_ userId: String, from: String) -> [(ReceivedEvent) -> Bool] {
        [
            { $0.userJoined.map { $0.userId == userId && $0.forwardedFrom == from } ?? false },
            { $0.userPublishStream.map { $0.userId == userId && $0.streamIndex == .main } ?? false },
        ]
    }

    /// Steps for "`userId` went away": onUserUnpublishStream, then onUserLeave.
    static func vanished(_ userId: String) -> [(ReceivedEvent) -> Bool] {
        [
            { $0.userUnpublishStream.map { $0.userId == userId } ?? false },
            { $0.userLeave.map { $0.userId == userId } ?? false },
        ]
    }

    /// Checks that `received` is one clean run: the first video packet a keyframe, sequence numbers
    /// continuous, and the payloads exactly a suffix of `sent` (nothing lost or extra, in order).
    static func checkRun(_ received: [ReceivedRTPPacket], sent: [OutgoingRTPPacket], video: Bool, _ context: String) {
        guard let first = received.first else {
            Issue.record("\(context): nothing received")
            return
        }
        if video { #expect(VP8Packetizer.isKeyframe(payload: first.payload), "\(context): the first packet is a keyframe") }
        let sequence = received.map(\.sequenceNumber)
        #expect(MediaHelpers.isContinuous(sequence), "\(context): sequence gap \(MediaHelpers.firstGap(sequence))")
        guard let start = sent.firstIndex(where: { $0.payload == first.payload }) else {
            Issue.record("\(context): the first packet received is not one that was sent")
            return
        }
        #expect(
            received.map(\.payload) == sent[start...].map(\.payload),
            "\(context): received \(received.count), expected the \(sent.count - start) sent from index \(start)")
    }

    /// The decoded /metrics gauge, polled until `condition` holds.
    static func waitForOverview(
        _ relay: TestRelay, _ what: String, timeout: Duration = .seconds(5), until condition: (RelayOverviewFacts) -> Bool
    ) async throws -> RelayOverviewFacts {
        let deadline = ContinuousClock.now + timeout
        while true {
            let facts = RelayOverviewFacts(await relay.server.core.overview())
            if condition(facts) { return facts }
            guard ContinuousClock.now < deadline else { throw TimeoutError(duration: timeout, what: "\(what) (last: \(facts))") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// The parts of RelayCore's overview the forwarding tests check.
struct RelayOverviewFacts: CustomStringConvertible {
    var forwardTargets: Int
    var links: Int
    var publications: Int
    var subscriptions: Int
    var users: Int
    var transports: Int
    var reportGeneratedAtMs: Int64
    var reportSources: Int
    var reportSinks: [UInt32]
    var reportTransports: [Int]

    init(_ overview: PKRelayServer.RelayOverview) {
        forwardTargets = overview.forwardTargets
        links = overview.links
        publications = overview.publications
        subscriptions = overview.subscriptions
        users = overview.users
        transports = overview.transports
        reportGeneratedAtMs = overview.media.generatedAtMs
        reportSources = overview.media.sources.count
        reportSinks = overview.media.sinks.keys.sorted()
        reportTransports = overview.media.transports.keys.sorted()
    }

    var description: String {
        "forwards \(forwardTargets), links \(links), publications \(publications), subscriptions \(subscriptions), users \(users), "
            + "transports \(transports); report@\(reportGeneratedAtMs): sources \(reportSources), sinks \(reportSinks), transports \(reportTransports)"
    }
}

extension ReceivedEvent {
    var userJoined: UserJoinedEvent? { if case .userJoined(let data)? = event { data } else { nil } }
    var userLeave: UserLeaveEvent? { if case .userLeave(let data)? = event { data } else { nil } }
    var exitRoom: ExitRoomEvent? { if case .exitRoom(let data)? = event { data } else { nil } }
    var userPublishStream: UserPublishStreamEvent? { if case .userPublishStream(let data)? = event { data } else { nil } }
    var userUnpublishStream: UserUnpublishStreamEvent? { if case .userUnpublishStream(let data)? = event { data } else { nil } }
    var streamSubscribed: SubscribeStreamResult? { if case .streamSubscribed(let data)? = event { data } else { nil } }
    var transportStateChanged: TransportStateChangedEvent? { if case .transportStateChanged(let data)? = event { data } else { nil } }
    var forwardStateChanged: ForwardStreamStateChangedEvent? { if case .forwardStreamStateChanged(let data)? = event { data } else { nil } }
    var forwardFirstKeyframe: ForwardFirstKeyframeEvent? { if case .forwardStreamFirstKeyframe(let data)? = event { data } else { nil } }
    var forwardStreamEvent: ForwardStreamEventEvent? { if case .forwardStreamEvent(let data)? = event { data } else { nil } }
    var connectOtherRoom: ConnectOtherRoomEvent? { if case .connectOtherRoom(let data)? = event { data } else { nil } }
    var disconnectOtherRoom: DisconnectOtherRoomEvent? { if case .disconnectOtherRoom(let data)? = event { data } else { nil } }
    var invitationReceived: InvitationReceivedEvent? { if case .invitationReceived(let data)? = event { data } else { nil } }
    var invitationStateChanged: InvitationStateChangedEvent? { if case .invitationStateChanged(let data)? = event { data } else { nil } }
    var roomMessage: MessageReceivedEvent? { if case .roomMessageReceived(let data)? = event { data } else { nil } }
}
