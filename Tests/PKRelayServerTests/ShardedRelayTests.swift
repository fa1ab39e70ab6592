import Foundation
import MediaPlane
import PKRelayClient
import Protocol
import SecureTransport
import Testing

@testable import PKRelayServer

/// Media across data-plane shards end to end: each room's transports on one shard, a forward
/// into a room on another shard carried by the in-memory pipe, the same stream for viewers.
@Suite("Media across shards", .timeLimit(.minutes(1)))
struct ShardedRelayTests {
    @Test("rooms on two shards: a room keeps one shard, a forward crosses to the other")
    func forwardAcrossShards() async throws {
        try await TestRelay.with({
            $0.media.threads = 2
            $0.media.spreadRoomAfter = 300
        }) { relay in
            #expect(relay.server.media.threadCount == 2)
            let anchor = try await TestPublisher.start(relay, room: "s1", user: "A", profile: .aeadAES128GCM, videoSSRC: 0x51, audioSSRC: 0x52)
            try anchor.sendFrame(keyframe: true)
            let local = try await Viewer.join(relay, room: "s1", user: "v1")
            let remote = try await Viewer.join(relay, room: "s2", user: "v2")
            let media = relay.server.media
            let anchorShard = try #require(media.shard(ofTransport: anchor.endpoint.transportId))
            // A viewer's transport opened before its join lands on its room's shard.
            #expect(media.shard(ofTransport: local.endpoint.transportId) == anchorShard)
            let remoteShard = try #require(media.shard(ofTransport: remote.endpoint.transportId))
            #expect(remoteShard != anchorShard, "the second room went to the less loaded shard")

            let mark = await remote.mark()
            let started: ForwardStreamResult = try await anchor.client.request(
                "startForwardStreamToRooms",
                StartForwardParams(
                    roomId: "s1", targets: [ForwardTargetParams(roomId: "s2", token: TestRelay.token(room: "s2", user: "A"))]))
            #expect(started.infos.map(\.state) == [ForwardState.success.rawValue])
            let localTracks = try await local.subscription(of: "A", after: 0)
            let remoteTracks = try await remote.subscription(of: "A", after: mark)
            let videoStart = anchor.sentVideo.count
            try await anchor.sendFrames(20, keyframes: [1, 12])
            let sent = Array(anchor.sentVideo[videoStart...])
            for (viewer, tracks) in [(local, localTracks), (remote, remoteTracks)] {
                try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "\(viewer.name): A's last video") { packets in
                    packets.contains { $0.ssrc == tracks.video && $0.payload == sent.last!.payload }
                }
                ForwardingHelpers.checkRun(viewer.received(tracks.video), sent: sent, video: true, "\(viewer.name) video")
            }
            // The same packets on both shards: one copy crossed the pipe per packet.
            #expect(local.received(localTracks.video).map(\.payload) == remote.received(remoteTracks.video).map(\.payload))
            let report = media.latestReport()
            #expect(report.counters.drops(.pipeFull) == 0)
            await local.close()
            await remote.close()
            await anchor.client.close()
        }
    }
}
