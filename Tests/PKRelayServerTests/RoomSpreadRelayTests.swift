import Foundation
import PKRelayClient
import Protocol
import RoomEngine
import SecureTransport
import Synchronization
import Testing

@testable import MediaPlane
@testable import PKRelayServer

/// One popular room's audience over both shards (`media.spreadRoomAfter`): its receiving
/// transports past the threshold go to the least loaded shard, fed by one copy of each watched
/// track per shard, and every viewer gets the same stream wherever it sits.
@Suite("A room's audience over shards", .timeLimit(.minutes(2)))
struct RoomSpreadRelayTests {
    @Test("past the threshold a room's viewers go to the other shard and get the same stream, keyframes and repairs")
    func audienceSpreadsOverShards() async throws {
        try await TestRelay.with({
            $0.media.threads = 2
            $0.media.spreadRoomAfter = 2
            // The anchors publish before five viewers join and subscribe, and send their first
            // frame only then: on a loaded machine that took more than the 10 s after which a
            // publication without media ends (KeepLiveFailed), and the relay, rightly, removed
            // both anchors' streams in the middle of the run.
            $0.rooms.keepAliveTimeoutMilliseconds = 120_000
        }) { relay in
            let media = relay.server.media
            let anchor = try await TestPublisher.start(relay, room: "popular", user: "A", profile: .aeadAES128GCM, videoSSRC: 0x61, audioSSRC: 0x62)
            let home = try #require(media.shard(ofTransport: anchor.endpoint.transportId))
            var viewers: [Viewer] = []
            for index in 1...4 { viewers.append(try await Viewer.join(relay, room: "popular", user: "v\(index)")) }
            let shards = viewers.map { media.shard(ofTransport: $0.endpoint.transportId) }
            // v1 fills the room's shard to the threshold (the anchor's transport and its own);
            // then the least loaded shard takes each, the room's own on a tie.
            #expect(shards == [home, 1 - home, 1 - home, home], "\(shards)")
            // A small room next to it stays on one shard.
            let small = try await Viewer.join(relay, room: "small", user: "s1")
            let smallAnchor = try await TestPublisher.start(relay, room: "small", user: "S", profile: .aeadAES128GCM, videoSSRC: 0x71, audioSSRC: 0x72)
            #expect(media.shard(ofTransport: small.endpoint.transportId) == media.shard(ofTransport: smallAnchor.endpoint.transportId))

            var tracks: [TrackSSRCs] = []
            for viewer in viewers { tracks.append(try await viewer.subscription(of: "A", after: 0, timeout: .seconds(15))) }
            // Frames until every viewer has started (its address proven, its first keyframe in),
            // then a run with a keyframe in it: each viewer's packets are one clean suffix of all.
            var frame = 0
            let warmUpEnd = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < warmUpEnd, zip(viewers, tracks).contains(where: { $0.received($1.video).isEmpty }) {
                try anchor.sendFrame(keyframe: frame % 10 == 0)
                frame += 1
                try await Task.sleep(for: .milliseconds(20))
            }
            let runStart = anchor.sentVideo.count
            // At a camera's pace, not in one burst: four viewers' sockets in a test process that
            // shares two cores with the whole suite must not overflow.
            for index in 0..<24 {
                try anchor.sendFrame(keyframe: index == 14)
                try await Task.sleep(for: .milliseconds(20))
            }
            let sent = anchor.sentVideo
            for (viewer, track) in zip(viewers, tracks) {
                do {
                    try await viewer.endpoint.waitForRTP(timeout: .seconds(15), "\(viewer.name): A's last video") { packets in
                        packets.contains { $0.ssrc == track.video && $0.payload == sent.last!.payload }
                    }
                } catch {
                    let report = media.latestReport()
                    let anchorTransport = anchor.endpoint.transportId
                    Issue.record(
                        "anchor transport \(anchorTransport) on shard \(String(describing: media.shard(ofTransport: anchorTransport))); cores' sources \(report.sources.keys.sorted()); cores' transports \(report.transports.keys.sorted()); shards of sources 1...12: \((1...12).map { id in media.registry.withLock { $0.routing.shard(ofSource: UInt32(id)) } })"
                    )
                    Issue.record(
                        "\(viewer.name) got \(viewer.received(track.video).count) video packets; drops \(DropReason.allCases.filter { report.counters.drops($0) > 0 }.map { "\($0)=\(report.counters.drops($0))" }); sinks \(report.sinks)"
                    )
                    throw error
                }
                ForwardingHelpers.checkRun(viewer.received(track.video), sent: sent, video: true, "\(viewer.name) video")
            }
            let run = sent[runStart...].map(\.payload)
            for (viewer, track) in zip(viewers, tracks) {
                #expect(Array(viewer.received(track.video).suffix(run.count).map(\.payload)) == run, "\(viewer.name): the whole run, on either shard")
            }

            // A viewer on the other shard asks for repairs: its shard's copy answers from its own buffer.
            let far = viewers[1]
            let farVideo = try #require(tracks[1].video)
            let before = far.received(farVideo)
            let originals = Array(before.suffix(6).prefix(4))
            try far.endpoint.sendGenericNACK(senderSSRC: 0x5EED_0002, mediaSSRC: farVideo, sequenceNumbers: originals.map(\.sequenceNumber))
            let repeats = try await far.endpoint.waitForRTP(timeout: .seconds(15), "4 repairs on the far shard") { packets in
                packets.filter { $0.ssrc == farVideo }.count >= before.count + 4
            }
            let repaired = repeats.filter { $0.ssrc == farVideo }.suffix(4)
            #expect(repaired.map(\.sequenceNumber) == originals.map(\.sequenceNumber) && repaired.map(\.payload) == originals.map(\.payload))
            #expect(media.latestReport().counters.drops(.pipeFull) == 0)

            for viewer in viewers + [small] { await viewer.close() }
            smallAnchor.endpoint.close()
            await smallAnchor.client.close()
            anchor.endpoint.close()
            await anchor.client.close()
        }
    }

    @Test("a receiveOnly transport may not publish, and a room past the threshold places it elsewhere from creation")
    func receiveOnlyTransports() async throws {
        try await TestRelay.with({
            $0.media.threads = 2
            $0.media.spreadRoomAfter = 1
        }) { relay in
            let media = relay.server.media
            let anchor = try await TestPublisher.start(relay, room: "ro", user: "A", profile: .aeadAES128GCM, videoSSRC: 0x81, audioSSRC: 0x82)
            let home = try #require(media.shard(ofTransport: anchor.endpoint.transportId))
            // A WebRTC receiving transport of the anchor's own connection: placed at creation,
            // so its port (in the result) is the other shard's.
            let receiving: CreateTransportResult = try await anchor.client.request(
                "createTransport", CreateTransportParams(kind: "webrtc", receiveOnly: true))
            #expect(media.shard(ofTransport: receiving.transportId) == 1 - home)
            #expect(receiving.port == media.webRTCPorts[1 - home])
            let plain: CreateTransportResult = try await anchor.client.request(
                "createTransport", CreateTransportParams(srtpProfile: "AEAD_AES_128_GCM", receiveOnly: true))
            do {
                let _: PublishStreamResult = try await anchor.client.request(
                    "publishStream",
                    PublishStreamParams(
                        roomId: "ro", streamIndex: .screen, transportId: plain.transportId, tracks: MediaHelpers.tracks(video: 0x91, audio: 0x92)))
                Issue.record("publishing on a receiveOnly transport was accepted")
            } catch ControlClientError.relay(let error) {
                #expect(error.code == .invalidParams && error.message.contains("receiveOnly"), "\(error)")
            }
            anchor.endpoint.close()
            await anchor.client.close()
        }
    }
}
