import Foundation
import MediaPlane
import PKRelayClient
import PKRelayServer
import Protocol
import SecureTransport
import Testing

@testable import PKRelayServer

/// WebRTC end to end with real peers: aiortc (ICE, DTLS-SRTP, SDP, VP8/Opus encoders and
/// decoders of its own) publishing and subscribing through the relay, across a forward, and
/// mixed with ffmpeg on plain SRTP transports in both directions.
extension RealClientInterop {
    @Suite("WebRTC interop", .serialized, .timeLimit(.minutes(2)))
    struct WebRTCInteropTests {
        static let enabled = WebRTCPeerProcess.isAvailable
        static let reason: Comment = "python3 with aiortc is not installed (make test installs it): WebRTC interop skipped"

        static func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkrelay-webrtc-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            return try await body(directory)
        }

        @Test("an aiortc publisher is decoded by an aiortc subscriber in the same room", .enabled(if: enabled, reason))
        func publishAndSubscribe() async throws {
            try await Self.withDirectory { directory in
                try await TestRelay.with { relay in
                    let publisher = try WebRTCPeerProcess(
                        "publisher", relay: relay, room: "w1", user: "alice", arguments: ["publish", "--duration", "25"], directory: directory)
                    defer { publisher.kill() }
                    let subscriber = try WebRTCPeerProcess(
                        "subscriber", relay: relay, room: "w1", user: "viewer",
                        arguments: [
                            "subscribe", "--publisher", "alice", "--min-video-frames", "30", "--min-audio-frames", "20", "--duration", "25",
                        ], directory: directory)
                    let (status, summary) = try await subscriber.finish(timeout: .seconds(60))
                    #expect(status == 0, "subscriber: \(summary); stderr:\n\(subscriber.stderrTail)")
                    #expect(WebRTCPeerProcess.frames(summary, "video", of: "alice") >= 30, "\(summary)")
                    #expect(WebRTCPeerProcess.frames(summary, "audio", of: "alice") >= 20, "\(summary)")
                    print("aiortc interop sending: \((try? await relay.sendingSummary()) ?? "-")")
                    try await relay.expectConsistentSendingCounts()
                }
            }
        }

        @Test(
            "two rooms on two shards: each room's aiortc viewer decodes its aiortc anchor, each pair on its shard's WebRTC port", .enabled(if: enabled, reason))
        func roomsOnTwoShards() async throws {
            try await Self.withDirectory { directory in
                // Two shards whatever PKR_TEST_MEDIA_THREADS says: this test is about them.
                try await TestRelay.with({ $0.media.threads = 2 }) { relay in
                    var peers: [(publisher: WebRTCPeerProcess, viewer: WebRTCPeerProcess)] = []
                    defer {
                        for pair in peers {
                            pair.publisher.kill()
                            pair.viewer.kill()
                        }
                    }
                    for (room, anchor) in [("ws1", "alice"), ("ws2", "bob")] {
                        let publisher = try WebRTCPeerProcess(
                            "publisher \(room)", relay: relay, room: room, user: anchor, arguments: ["publish", "--duration", "15"], directory: directory)
                        let viewer = try WebRTCPeerProcess(
                            "viewer \(room)", relay: relay, room: room, user: "viewer",
                            arguments: [
                                "subscribe", "--publisher", anchor, "--min-video-frames", "30", "--min-audio-frames", "20", "--duration", "15",
                            ], directory: directory)
                        peers.append((publisher, viewer))
                        // The next room is placed once this one's transports are: on the other shard.
                        let deadline = ContinuousClock.now + .seconds(20)
                        while relay.server.media.transportCount < 2 * peers.count, ContinuousClock.now < deadline {
                            try await Task.sleep(for: .milliseconds(50))
                        }
                    }
                    // The port each peer's transport got names its shard (one WebRTC port per shard).
                    func port(_ summary: [String: Any]) -> Int? { (summary["transports"] as? [[String: Any]])?.first?["port"] as? Int }
                    let media = relay.server.media
                    var roomPorts: [Int] = []
                    for (index, anchor) in ["alice", "bob"].enumerated() {
                        let viewer = peers[index].viewer
                        let (status, summary) = try await viewer.finish(timeout: .seconds(60))
                        #expect(status == 0, "\(viewer.name): \(summary); stderr:\n\(viewer.stderrTail)")
                        #expect(WebRTCPeerProcess.frames(summary, "video", of: anchor) >= 30, "\(summary)")
                        #expect(WebRTCPeerProcess.frames(summary, "audio", of: anchor) >= 20, "\(summary)")
                        let viewerPort = try #require(port(summary), "\(summary)")
                        let (_, sent) = try await peers[index].publisher.finish(timeout: .seconds(40))
                        #expect(port(sent) == viewerPort, "a room's anchor and viewer share its shard: \(sent)")
                        roomPorts.append(viewerPort)
                    }
                    #expect(
                        Set(roomPorts).count == 2 && roomPorts.allSatisfy(media.webRTCPorts.contains), "rooms on ports \(roomPorts) of \(media.webRTCPorts)")
                }
            }
        }

        @Test("lost video is repaired over RTX both ways: the relay NACKs the publisher and retransmits to the viewer", .enabled(if: enabled, reason))
        func retransmissionStreams() async throws {
            try await Self.withDirectory { directory in
                try await TestRelay.with { relay in
                    // Every 25th video packet is lost once on the way in and once on the way out.
                    let publisher = try WebRTCPeerProcess(
                        "publisher", relay: relay, room: "w6", user: "alice",
                        arguments: [
                            "publish", "--duration", "10", "--drop-video-every", "25",
                        ], directory: directory)
                    defer { publisher.kill() }
                    let viewer = try WebRTCPeerProcess(
                        "viewer", relay: relay, room: "w6", user: "viewer",
                        arguments: [
                            "subscribe", "--publisher", "alice", "--min-video-frames", "90", "--duration", "10", "--drop-video-every", "25",
                        ], directory: directory)
                    let (status, summary) = try await viewer.finish(timeout: .seconds(40))
                    #expect(status == 0, "viewer: \(summary); stderr:\n\(viewer.stderrTail)")
                    #expect(WebRTCPeerProcess.frames(summary, "video", of: "alice") >= 90, "\(summary)")
                    let (_, sent) = try await publisher.finish(timeout: .seconds(40))

                    // Out: the relay answered the viewer's NACKs on the RTX stream it offered.
                    let received = summary["loss"] as? [String: Int] ?? [:]
                    #expect((received["dropped"] ?? 0) >= 2, "the viewer dropped packets: \(summary)")
                    #expect((received["rtxPackets"] ?? 0) >= 1, "the viewer got RTX packets: \(summary)")
                    #expect((received["repaired"] ?? 0) >= (received["dropped"] ?? 0) - 1, "RTX brought back what the viewer dropped: \(summary)")
                    // In: the relay NACKed the publisher's gaps and unwrapped its RTX packets.
                    let lost = sent["loss"] as? [String: Int] ?? [:]
                    print("aiortc RTX: viewer \(received), publisher \(lost), viewer done after \(summary["elapsedMs"] ?? "-") ms")
                    #expect((lost["dropped"] ?? 0) >= 2 && (lost["rtxPackets"] ?? 0) >= 1, "the publisher retransmitted on RTX: \(sent)")
                    let port = relay.ports.admin
                    #expect(try await AdminHTTPClient.metric(port: port, "pkrelay_nacks_sent_total") >= 1)
                    #expect(try await AdminHTTPClient.metric(port: port, "pkrelay_retransmissions_received_total") >= 1)
                    #expect(try await AdminHTTPClient.metric(port: port, "pkrelay_retransmissions_total") >= 1)
                }
            }
        }

        @Test("a viewer in another room decodes a forwarded aiortc anchor", .enabled(if: enabled, reason))
        func forwardToAnotherRoom() async throws {
            try await Self.withDirectory { directory in
                try await TestRelay.with { relay in
                    let publisher = try WebRTCPeerProcess(
                        "publisher", relay: relay, room: "w1", user: "alice",
                        arguments: [
                            "publish", "--duration", "25", "--forward-to", "w2", "--forward-token", TestRelay.token(room: "w2", user: "alice"),
                        ], directory: directory)
                    defer { publisher.kill() }
                    let viewer = try WebRTCPeerProcess(
                        "viewer", relay: relay, room: "w2", user: "viewer2",
                        arguments: [
                            "subscribe", "--auto", "--expect", "alice", "--min-video-frames", "30", "--duration", "25",
                        ], directory: directory)
                    let (status, summary) = try await viewer.finish(timeout: .seconds(60))
                    #expect(status == 0, "viewer in w2: \(summary); stderr:\n\(viewer.stderrTail)")
                    #expect(WebRTCPeerProcess.frames(summary, "video", of: "alice") >= 30, "\(summary)")
                }
            }
        }

        @Test(
            "an ffmpeg SRTP publisher is decoded by an aiortc subscriber",
            .enabled(if: enabled && FFmpegInteropTests.isAvailable, reason))
        func ffmpegToWebRTC() async throws {
            try await Self.withDirectory { directory in
                try await TestRelay.with { relay in
                    let publisher = try await Self.ffmpegPublisher(relay, room: "w3", user: "ffpub")
                    let subscriber = try WebRTCPeerProcess(
                        "subscriber", relay: relay, room: "w3", user: "viewer",
                        arguments: [
                            "subscribe", "--publisher", "ffpub", "--min-video-frames", "30", "--duration", "25",
                        ], directory: directory)
                    defer { subscriber.kill() }
                    let sender = try Self.startFFmpeg(publisher, directory: directory)
                    defer { if sender.isRunning { kill(sender.process.processIdentifier, SIGKILL) } }
                    let (status, summary) = try await subscriber.finish(timeout: .seconds(60))
                    #expect(status == 0, "aiortc subscriber: \(summary); stderr:\n\(subscriber.stderrTail)\nffmpeg: \(sender.stderrTail)")
                    #expect(WebRTCPeerProcess.frames(summary, "video", of: "ffpub") >= 30, "\(summary)")
                    await publisher.client.close()
                }
            }
        }

        @Test(
            "payload types that clash between publishers are renumbered for a WebRTC subscriber",
            .enabled(if: enabled && FFmpegInteropTests.isAvailable, reason))
        func clashingPayloadTypes() async throws {
            try await Self.withDirectory { directory in
                try await TestRelay.with { relay in
                    // aiortc sends Opus as 96 and VP8 as 97; this ffmpeg sends VP8 as 96 and Opus as 111.
                    let ffmpegPublisher = try await Self.ffmpegPublisher(relay, room: "w5", user: "ffpub")
                    let sender = try Self.startFFmpeg(ffmpegPublisher, directory: directory, seconds: 25)
                    defer { if sender.isRunning { kill(sender.process.processIdentifier, SIGKILL) } }
                    let publisher = try WebRTCPeerProcess(
                        "publisher", relay: relay, room: "w5", user: "alice", arguments: ["publish", "--duration", "25"], directory: directory)
                    defer { publisher.kill() }
                    let viewer = try WebRTCPeerProcess(
                        "viewer", relay: relay, room: "w5", user: "viewer",
                        arguments: [
                            "subscribe", "--auto", "--expect", "alice,ffpub", "--min-video-frames", "30", "--min-audio-frames", "20", "--duration", "25",
                        ], directory: directory)
                    let (status, summary) = try await viewer.finish(timeout: .seconds(60))
                    #expect(status == 0, "viewer: \(summary); stderr:\n\(viewer.stderrTail)")
                    for user in ["alice", "ffpub"] {
                        #expect(WebRTCPeerProcess.frames(summary, "video", of: user) >= 30, "\(user): \(summary)")
                        #expect(WebRTCPeerProcess.frames(summary, "audio", of: user) >= 20, "\(user): \(summary)")
                    }
                    await ffmpegPublisher.client.close()
                }
            }
        }

        /// A joined publisher with two SDES-keyed SRTP transports for ffmpeg (VP8 96, Opus 111).
        struct FFmpegPublisher {
            let client: ControlClient
            let video: CreateTransportResult
            let audio: CreateTransportResult
            let videoKey: String
            let audioKey: String
            static let profile = SRTPProfile.aesCM128HMACSHA1_80
        }

        static func ffmpegPublisher(_ relay: TestRelay, room: String, user: String) async throws -> FFmpegPublisher {
            let profile = FFmpegPublisher.profile
            let client = try await relay.join(room: room, user: user)
            let videoIn: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(srtpProfile: profile.rawValue))
            let audioIn: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(srtpProfile: profile.rawValue))
            let videoKey = SDESKeying.encodeBase64(SDESKeying.generateKeyingMaterial(for: profile))
            let audioKey = SDESKeying.encodeBase64(SDESKeying.generateKeyingMaterial(for: profile))
            try await client.call("connectTransport", ConnectTransportParams(transportId: videoIn.transportId, srtpKey: videoKey))
            try await client.call("connectTransport", ConnectTransportParams(transportId: audioIn.transportId, srtpKey: audioKey))
            let _: PublishStreamResult = try await client.request(
                "publishStream",
                PublishStreamParams(
                    roomId: room, transportId: videoIn.transportId,
                    tracks: [
                        TrackDescription(kind: .video, ssrc: 11_111_111, payloadType: 96, codec: "VP8", clockRate: 90000),
                        TrackDescription(
                            kind: .audio, ssrc: 22_222_222, payloadType: 111, codec: "opus", clockRate: 48000, channels: 2, transportId: audioIn.transportId),
                    ]))
            return FFmpegPublisher(client: client, video: videoIn, audio: audioIn, videoKey: videoKey, audioKey: audioKey)
        }

        /// ffmpeg sending a test pattern (VP8, a keyframe every second) and a tone (Opus) to the publisher's transports.
        static func startFFmpeg(_ publisher: FFmpegPublisher, directory: URL, seconds: Int = 10) throws -> ExternalProcess {
            let suite = FFmpegPublisher.profile.rawValue
            return try ExternalProcess(
                executable: FFmpegInteropTests.ffmpeg,
                arguments: [
                    "-nostdin", "-hide_banner", "-loglevel", "error", "-re",
                    "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                    "-map", "0:v", "-t", "\(seconds)", "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "500k", "-g", "30", "-auto-alt-ref",
                    "0",
                    "-payload_type", "96", "-ssrc", "11111111", "-f", "rtp", "-srtp_out_suite", suite, "-srtp_out_params", publisher.videoKey,
                    "srtp://127.0.0.1:\(publisher.video.port)?rtcpport=\(publisher.video.port)&pkt_size=1200",
                    "-map", "1:a", "-t", "\(seconds)", "-c:a", "libopus", "-b:a", "48k",
                    "-payload_type", "111", "-ssrc", "22222222", "-f", "rtp", "-srtp_out_suite", suite, "-srtp_out_params", publisher.audioKey,
                    "srtp://127.0.0.1:\(publisher.audio.port)?rtcpport=\(publisher.audio.port)&pkt_size=1200",
                ], stderrURL: directory.appendingPathComponent("sender-\(publisher.video.transportId).log"))
        }

        @Test(
            "an aiortc publisher is decoded by an ffmpeg SRTP subscriber",
            .enabled(if: enabled && FFmpegInteropTests.isAvailable, reason))
        func webRTCToFFmpeg() async throws {
            try await Self.withDirectory { directory in
                try await TestRelay.with { relay in
                    let publisher = try WebRTCPeerProcess(
                        "publisher", relay: relay, room: "w4", user: "alice", arguments: ["publish", "--duration", "25"], directory: directory)
                    defer { publisher.kill() }
                    let profile = SRTPProfile.aesCM128HMACSHA1_80
                    let subscriber = try await relay.join(room: "w4", user: "ffsub")
                    let videoOut: CreateTransportResult = try await subscriber.request("createTransport", CreateTransportParams(srtpProfile: profile.rawValue))
                    let audioOut: CreateTransportResult = try await subscriber.request("createTransport", CreateTransportParams(srtpProfile: profile.rawValue))
                    let (videoPort, audioPort) = try LocalPorts.twoFreePairs()
                    try await MediaHelpers.connectForPlayer(subscriber, transport: videoOut, port: videoPort)
                    try await MediaHelpers.connectForPlayer(subscriber, transport: audioOut, port: audioPort)
                    // aiortc sends a keyframe only when asked, so ffmpeg must listen before the
                    // subscription's keyframe request goes out: it starts first, with the payload
                    // types aiortc offers (checked against the subscription below).
                    let (videoPT, audioPT) = (97, 96)
                    let sdp = """
                        v=0
                        o=- 0 0 IN IP4 127.0.0.1
                        s=PKRelay subscriber
                        c=IN IP4 127.0.0.1
                        t=0 0
                        m=video \(videoPort) RTP/SAVP \(videoPT)
                        a=rtpmap:\(videoPT) VP8/90000
                        a=crypto:1 \(profile.rawValue) inline:\(videoOut.srtp!.key)
                        m=audio \(audioPort) RTP/SAVP \(audioPT)
                        a=rtpmap:\(audioPT) opus/48000/2
                        a=crypto:1 \(profile.rawValue) inline:\(audioOut.srtp!.key)

                        """
                    let sdpURL = directory.appendingPathComponent("recv.sdp")
                    let crcURL = directory.appendingPathComponent("frames.crc")
                    try sdp.write(to: sdpURL, atomically: true, encoding: .utf8)
                    let receiver = try ExternalProcess(
                        executable: FFmpegInteropTests.ffmpeg,
                        arguments: [
                            "-nostdin", "-hide_banner", "-loglevel", "warning", "-protocol_whitelist", "file,udp,rtp,srtp", "-reorder_queue_size", "0",
                            "-analyzeduration", "5000000", "-i", sdpURL.path, "-map", "0:v", "-map", "0:a", "-t", "6", "-flush_packets", "1", "-f", "framecrc",
                            "-y", crcURL.path,
                        ], stderrURL: directory.appendingPathComponent("receiver.log"))
                    defer { if receiver.isRunning { kill(receiver.process.processIdentifier, SIGKILL) } }
                    try await LocalPorts.waitUntilBound([videoPort, audioPort], by: receiver, timeout: .seconds(30))
                    // Subscribe once alice has published.
                    var subscribed: SubscribeStreamResult?
                    let deadline = ContinuousClock.now + .seconds(20)
                    while subscribed == nil, ContinuousClock.now < deadline {
                        subscribed = try? await subscriber.request(
                            "subscribeStream",
                            SubscribeStreamParams(
                                roomId: "w4", userId: "alice", transportId: videoOut.transportId, audioTransportId: audioOut.transportId,
                                videoTransportId: videoOut.transportId))
                        if subscribed == nil { try await Task.sleep(for: .milliseconds(100)) }
                    }
                    let result = try #require(subscribed, "alice never published; publisher stderr:\n\(publisher.stderrTail)")
                    #expect(result.tracks.first { $0.kind == .video }?.payloadType == videoPT, "aiortc's VP8 payload type: \(result.tracks)")
                    #expect(result.tracks.first { $0.kind == .audio }?.payloadType == audioPT, "aiortc's Opus payload type: \(result.tracks)")
                    _ = try await receiver.waitForExit(timeout: .seconds(30))
                    let lines = ((try? String(contentsOf: crcURL, encoding: .utf8)) ?? "").split(separator: "\n")
                    let videoFrames = lines.filter { $0.hasPrefix("0,") }.count
                    let audioFrames = lines.filter { $0.hasPrefix("1,") }.count
                    #expect(videoFrames >= 30, "ffmpeg decoded \(videoFrames) video frames; receiver: \(receiver.stderrTail)")
                    #expect(audioFrames >= 30, "ffmpeg decoded \(audioFrames) audio frames")
                    await subscriber.close()
                }
            }
        }
    }
}
