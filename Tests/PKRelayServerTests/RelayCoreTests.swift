import Auth
import Cluster
import Foundation
import Logging
import MediaPlane
import Protocol
import RoomEngine
import Testing

@testable import PKRelayServer

/// The relay core on its own, on a media plane that only records: what it tells the media plane
/// (one batch per engine outcome, in the engine's order) and what it tells the operator.
@Suite("Relay core on a recording media plane")
struct RelayCoreTests {
    /// An anchor publishing audio and video on an SRTP transport, and a viewer subscribed to it.
    static func room(
        _ harness: CoreHarness
    ) async throws -> (anchor: SessionID, transport: Int, viewer: SessionID, anchorMessages: AsyncStream<String>.Iterator) {
        let core = harness.core
        let (anchor, anchorStream) = await core.connect()
        var messages = anchorStream.makeAsyncIterator()
        await core.handle(
            CoreHarness.request(1, "joinRoom", ["roomId": "r1", "userId": "anchor", "token": CoreHarness.token(room: "r1", user: "anchor")]), from: anchor)
        await core.handle(CoreHarness.request(2, "createTransport", ["srtpProfile": "none"]), from: anchor)
        let created = try #require(await CoreHarness.answer(2, &messages)?.answer["result"] as? [String: Any])
        let transport = try #require(created["transportId"] as? Int)
        await core.handle(
            CoreHarness.request(
                3, "publishStream",
                [
                    "roomId": "r1", "transportId": transport,
                    "tracks": [
                        ["kind": "audio", "ssrc": 11, "payloadType": 111, "codec": "opus", "clockRate": 48_000, "channels": 2],
                        ["kind": "video", "ssrc": 12, "payloadType": 96, "codec": "VP8", "clockRate": 90_000],
                    ],
                ]), from: anchor)
        #expect(await CoreHarness.answer(3, &messages)?.answer["error"] == nil)
        let (viewer, _) = await core.connect()
        await core.handle(
            CoreHarness.request(
                1, "joinRoom",
                [
                    "roomId": "r1", "userId": "viewer", "role": "audience", "token": CoreHarness.token(room: "r1", user: "viewer"),
                ]), from: viewer)
        await core.handle(CoreHarness.request(2, "createTransport", ["srtpProfile": "none"]), from: viewer)
        await core.handle(CoreHarness.request(3, "subscribeStream", ["roomId": "r1", "userId": "anchor", "transportId": transport + 1]), from: viewer)
        return (anchor, transport, viewer, messages)
    }

    @Test func closingAPublishingTransportEndsItsStreamForEveryone() async throws {
        let harness = CoreHarness()
        let room = try await Self.room(harness)
        let (anchor, transport) = (room.anchor, room.transport)
        var messages = room.anchorMessages
        let hooksBefore = await harness.core.webhookStats.enqueued
        _ = harness.media.takeCommands()

        await harness.core.handle(CoreHarness.request(4, "closeTransport", ["transportId": transport]), from: anchor)
        #expect(await CoreHarness.answer(4, &messages)?.answer["error"] == nil)
        // The room server hears the unpublish (a webhook), and so do the logs.
        #expect(await harness.core.webhookStats.enqueued == hooksBefore + 1)
        let unpublished = harness.logs.metadata(of: "stream unpublished")
        #expect(unpublished.count == 1 && unpublished.first?["reason"] == "other" && unpublished.first?["user"] == "anchor")
        // The media plane gets the whole outcome in one batch, the transport closed last.
        let commands = harness.media.takeCommands()
        #expect(commands.count == 1)
        guard case .apply(let changes)? = commands.first else {
            Issue.record("\(commands)")
            return
        }
        #expect(changes.last == .closeTransport(transport))
        #expect(changes.filter { if case .removeSource = $0 { true } else { false } }.count == 2)
        #expect(changes.filter { if case .unbind = $0 { true } else { false } }.count == 2)
        #expect(harness.media.openTransports == [transport + 1])
    }

    @Test func aDisconnectClosesEveryTransportAfterWhatIsOnIt() async throws {
        let harness = CoreHarness()
        let (anchor, transport, viewer, _) = try await Self.room(harness)
        _ = harness.media.takeCommands()
        await harness.core.disconnect(viewer)
        guard case .apply(let changes)? = harness.media.takeCommands().first else {
            Issue.record("nothing applied")
            return
        }
        #expect(changes.suffix(1) == [.closeTransport(transport + 1)])
        // Each of the viewer's two sinks is unbound, then removed, before its transport closes.
        let unbound = changes.compactMap { if case .unbind(let sink) = $0 { sink } else { nil } }
        let removed = changes.compactMap { if case .removeSink(let sink) = $0 { sink } else { nil } }
        #expect(unbound.count == 2 && Set(unbound) == Set(removed))
        for sink in removed {
            #expect(changes.firstIndex(of: .unbind(sink: sink))! < changes.firstIndex(of: .removeSink(sink))!)
        }
        await harness.core.disconnect(anchor)
        #expect(harness.media.openTransports.isEmpty)
    }
}

/// A directory that places every room on one other node: what a cluster node answers for rooms
/// it does not serve.
struct ElsewhereDirectory: RoomDirectory {
    let node = ClusterNode(id: "relay-2", controlURL: "ws://10.0.0.2:7700/rtc", mediaAddress: "10.0.0.2:40000", capacity: 1)
    var nodeId: String { "relay-1" }
    nonisolated(nonsending) func route(roomId: String) async -> ClusterRoute { .elsewhere(RoomPlacement(roomId: roomId, node: node, epoch: 7)) }
    nonisolated(nonsending) func locate(roomId: String) async -> ClusterRoute { .elsewhere(RoomPlacement(roomId: roomId, node: node, epoch: 7)) }
    func epoch(of roomId: String) -> Int64? { nil }
    nonisolated(nonsending) func place(roomId: String) async throws -> RoomPlacement { RoomPlacement(roomId: roomId, node: node, epoch: 7) }
    func roomEnded(roomId: String) {}
    func redirected() {}
    nonisolated(nonsending) func liveNodes() async -> [ClusterNode] { [node] }
    var status: ClusterStatus? { nil }
}

@Suite("Relay core: WHIP in a cluster")
struct RelayCoreWHIPTests {
    @Test func aWHIPOfferForARoomOnAnotherNodeIsRedirectedThere() async throws {
        let media = RecordingMediaCommands()
        let core = RelayCore(
            configuration: RelayConfiguration(), media: media, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            nowMs: { CoreHarness.startMs }, directory: ElsewhereDirectory(), peers: nil, dtlsContext: CoreHarness.dtls)
        let answer = await core.whipPublish(token: CoreHarness.token(room: "r9", user: "obs"), offer: WHIPTests.offer())
        #expect(answer == .redirect(location: "http://10.0.0.2:7700/whip"))
        #expect(media.commands.isEmpty, "nothing was opened here")
    }
}

@Suite("Relay core: named media addresses")
struct RelayCoreMediaAddressTests {
    /// connectTransport with an address on a connection that joined with `grants`: whether the
    /// media plane is told the address is vouched for.
    static func connect(grants: TokenGrantSet?) async throws -> Bool? {
        let harness = CoreHarness()
        let (session, stream) = await harness.core.connect()
        var messages = stream.makeAsyncIterator()
        let token = TokenMinter(key: .development).mint(
            TokenClaims(
                sub: "player", room: "r1", exp: CoreHarness.startMs / 1000 + 3600, iat: CoreHarness.startMs / 1000, grants: grants))
        await harness.core.handle(CoreHarness.request(1, "joinRoom", ["roomId": "r1", "userId": "player", "role": "audience", "token": token]), from: session)
        await harness.core.handle(CoreHarness.request(2, "createTransport", [:]), from: session)
        let created = try #require(await CoreHarness.answer(2, &messages)?.answer["result"] as? [String: Any])
        let transport = try #require(created["transportId"] as? Int)
        await harness.core.handle(CoreHarness.request(3, "connectTransport", ["transportId": transport, "ip": "127.0.0.1", "port": 5004]), from: session)
        #expect(await CoreHarness.answer(3, &messages)?.answer["error"] == nil)
        for case .connectTransport(let id, _, _, let granted) in harness.media.commands where id == transport { return granted }
        return nil
    }

    @Test func aNamedAddressIsVouchedForOnlyWhenTheTokenSaysSo() async throws {
        #expect(try await Self.connect(grants: nil) == false)
        #expect(try await Self.connect(grants: TokenGrantSet(mediaAddress: false)) == false)
        #expect(try await Self.connect(grants: TokenGrantSet(mediaAddress: true)) == true)
    }
}
