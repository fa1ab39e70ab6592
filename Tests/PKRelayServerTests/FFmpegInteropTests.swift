import Foundation
import PKRelayClient
import Protocol
import SecureTransport
import Testing

/// ffmpeg publishes VP8 + Opus over SDES-keyed SRTP into a room, and another ffmpeg, started
/// first from an SDP file, receives the stream through the relay and decodes it.
extension RealClientInterop {
    @Suite("ffmpeg interop", .serialized, .timeLimit(.minutes(2)))
    struct FFmpegInteropTests {
        static let ffmpeg = "/usr/bin/ffmpeg"
        static let isAvailable = FileManager.default.isExecutableFile(atPath: ffmpeg)
        static let profile = SRTPProfile.aesCM128HMACSHA1_80

        @Test(
            "ffmpeg to relay to ffmpeg: at least 95% of the frames decode",
            .enabled(if: isAvailable, "ffmpeg is not installed at /usr/bin/ffmpeg: interop test skipped"))
        func decodesThroughRelay() async throws {
            let seconds = 5
            let frameRate = 30
            let outcome = try await Self.run(seconds: seconds, frameRate: frameRate, wrongVideoKey: false)
            let expectedVideo = seconds * frameRate
            let expectedAudio = seconds * 50
            #expect(outcome.videoFrames * 100 >= expectedVideo * 95, "video: \(outcome.videoFrames) of \(expectedVideo) frames decoded; \(outcome.diagnostics)")
            #expect(outcome.audioFrames * 100 >= expectedAudio * 95, "audio: \(outcome.audioFrames) of \(expectedAudio) frames decoded; \(outcome.diagnostics)")
            #expect(outcome.videoFrames <= expectedVideo + 2 && outcome.audioFrames <= expectedAudio + 2, "no more frames than sent: \(outcome)")
        }

        @Test(
            "a receiver with the wrong key decodes no video",
            .enabled(if: isAvailable, "ffmpeg is not installed at /usr/bin/ffmpeg: interop test skipped"))
        func wrongKeyDecodesNothing() async throws {
            let outcome = try await Self.run(seconds: 4, frameRate: 30, wrongVideoKey: true)
            #expect(outcome.videoFrames == 0, "\(outcome.diagnostics)")
            #expect(outcome.videoPacketsRelayed >= 60, "the relay did send the video (\(outcome.videoPacketsRelayed) packets)")
        }

        struct Outcome: CustomStringConvertible {
            var videoFrames: Int
            var audioFrames: Int
            var videoPacketsRelayed: UInt64
            var diagnostics: String
            var description: String { "video \(videoFrames), audio \(audioFrames), relayed \(videoPacketsRelayed); \(diagnostics)" }
        }

        static func run(seconds: Int, frameRate: Int, wrongVideoKey: Bool) async throws -> Outcome {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkrelay-ffmpeg-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }

            return try await TestRelay.with { relay in
                // The publisher's side of the control channel: one transport per ffmpeg output.
                let publisher = try await relay.join(room: "ff", user: "ffpub")
                let videoIn: CreateTransportResult = try await publisher.request("createTransport", CreateTransportParams(srtpProfile: profile.rawValue))
                let audioIn: CreateTransportResult = try await publisher.request("createTransport", CreateTransportParams(srtpProfile: profile.rawValue))
                let videoKey = SDESKeying.encodeBase64(SDESKeying.generateKeyingMaterial(for: profile))
                let audioKey = SDESKeying.encodeBase64(SDESKeying.generateKeyingMaterial(for: profile))
                try await publisher.call("connectTransport", ConnectTransportParams(transportId: videoIn.transportId, srtpKey: videoKey))
                try await publisher.call("connectTransport", ConnectTransportParams(transportId: audioIn.transportId, srtpKey: audioKey))
                let _: PublishStreamResult = try await publisher.request(
                    "publishStream",
                    PublishStreamParams(
                        roomId: "ff", streamIndex: .main, transportId: videoIn.transportId,
                        tracks: [
                            TrackDescription(kind: .video, ssrc: 11_111_111, payloadType: 96, codec: "VP8", clockRate: 90000),
                            TrackDescription(
                                kind: .audio, ssrc: 22_222_222, payloadType: 111, codec: "opus", clockRate: 48000, channels: 2, transportId: audioIn.transportId
                            ),
                        ]))

                // The receiver's side: two transports sending to the ports ffmpeg will listen on,
                // each proved from its port before ffmpeg takes it.
                let subscriber = try await relay.join(room: "ff", user: "ffsub")
                let videoOut: CreateTransportResult = try await subscriber.request("createTransport", CreateTransportParams(srtpProfile: profile.rawValue))
                let audioOut: CreateTransportResult = try await subscriber.request("createTransport", CreateTransportParams(srtpProfile: profile.rawValue))
                let (videoPort, audioPort) = try LocalPorts.twoFreePairs()
                try await MediaHelpers.connectForPlayer(subscriber, transport: videoOut, port: videoPort)
                try await MediaHelpers.connectForPlayer(subscriber, transport: audioOut, port: audioPort)
                let subscribed: SubscribeStreamResult = try await subscriber.request(
                    "subscribeStream",
                    SubscribeStreamParams(
                        roomId: "ff", userId: "ffpub", streamIndex: .main, transportId: videoOut.transportId,
                        audioTransportId: audioOut.transportId, videoTransportId: videoOut.transportId))
                #expect(subscribed.tracks.first { $0.kind == .video }?.transportId == videoOut.transportId)
                #expect(subscribed.tracks.first { $0.kind == .audio }?.transportId == audioOut.transportId)
                let videoSSRC = subscribed.tracks.first { $0.kind == .video }?.ssrc ?? 0

                let receiverVideoKey = wrongVideoKey ? SDESKeying.encodeBase64(SDESKeying.generateKeyingMaterial(for: profile)) : videoOut.srtp!.key
                let sdp = """
                    v=0
                    o=- 0 0 IN IP4 127.0.0.1
                    s=PKRelay subscriber
                    c=IN IP4 127.0.0.1
                    t=0 0
                    m=video \(videoPort) RTP/SAVP 96
                    a=rtpmap:96 VP8/90000
                    a=crypto:1 \(profile.rawValue) inline:\(receiverVideoKey)
                    m=audio \(audioPort) RTP/SAVP 111
                    a=rtpmap:111 opus/48000/2
                    a=crypto:1 \(profile.rawValue) inline:\(audioOut.srtp!.key)

                    """
                let sdpURL = directory.appendingPathComponent("recv.sdp")
                let crcURL = directory.appendingPathComponent("frames.crc")
                try sdp.write(to: sdpURL, atomically: true, encoding: .utf8)

                // The receiver first.
                let receiver = try ExternalProcess(
                    executable: ffmpeg,
                    arguments: [
                        "-nostdin", "-hide_banner", "-loglevel", "warning",
                        "-protocol_whitelist", "file,udp,rtp,srtp", "-reorder_queue_size", "0",
                        "-analyzeduration", "3000000", "-i", sdpURL.path,
                        "-map", "0:v", "-map", "0:a", "-flush_packets", "1", "-f", "framecrc", "-y", crcURL.path,
                    ], stderrURL: directory.appendingPathComponent("receiver.log"))
                defer { if receiver.isRunning { kill(receiver.process.processIdentifier, SIGKILL) } }
                try await LocalPorts.waitUntilBound([videoPort, audioPort], by: receiver, timeout: .seconds(30))

                let sender = try ExternalProcess(
                    executable: ffmpeg,
                    arguments: [
                        "-nostdin", "-hide_banner", "-loglevel", "error", "-re",
                        "-f", "lavfi", "-i", "testsrc=size=320x240:rate=\(frameRate)",
                        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                        "-map", "0:v", "-t", "\(seconds)", "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8",
                        "-b:v", "500k", "-g", "\(frameRate)", "-auto-alt-ref", "0",
                        "-payload_type", "96", "-ssrc", "11111111", "-f", "rtp",
                        "-srtp_out_suite", profile.rawValue, "-srtp_out_params", videoKey,
                        "srtp://127.0.0.1:\(videoIn.port)?rtcpport=\(videoIn.port)&pkt_size=1200",
                        "-map", "1:a", "-t", "\(seconds)", "-c:a", "libopus", "-b:a", "48k",
                        "-payload_type", "111", "-ssrc", "22222222", "-f", "rtp",
                        "-srtp_out_suite", profile.rawValue, "-srtp_out_params", audioKey,
                        "srtp://127.0.0.1:\(audioIn.port)?rtcpport=\(audioIn.port)&pkt_size=1200",
                    ], stderrURL: directory.appendingPathComponent("sender.log"))
                defer { if sender.isRunning { kill(sender.process.processIdentifier, SIGKILL) } }
                let senderStatus = try await sender.waitForExit(timeout: .seconds(seconds + 15))
                #expect(senderStatus == 0, "ffmpeg sender failed: \(sender.stderrTail)")

                // Let the receiver decode what is in flight: wait until its output stops growing.
                try await Self.waitUntilStable(crcURL, quiet: .milliseconds(1000), timeout: .seconds(8))
                await receiver.interruptAndWait()

                let lines = ((try? String(contentsOf: crcURL, encoding: .utf8)) ?? "").split(separator: "\n")
                let stats: GetStatsResult = try await subscriber.request("getStats", GetStatsParams())
                let relayed = stats.subscribed.first { $0.ssrc == videoSSRC }?.packets ?? 0
                if !wrongVideoKey { print("ffmpeg interop sending, \(profile.rawValue): \((try? await relay.sendingSummary()) ?? "-")") }
                let metrics =
                    (try? await relay.metrics())?.split(separator: "\n").filter { $0.hasPrefix("pkrelay_dropped_packets_total") && !$0.hasSuffix(" 0") }.joined(
                        separator: ", ") ?? ""
                await publisher.close()
                await subscriber.close()
                return Outcome(
                    videoFrames: lines.filter { $0.hasPrefix("0,") }.count,
                    audioFrames: lines.filter { $0.hasPrefix("1,") }.count,
                    videoPacketsRelayed: relayed,
                    diagnostics: "drops: [\(metrics)]; receiver: \(receiver.stderrTail)")
            }
        }

        /// Waits until `url` has not changed size for `quiet`, bounded by `timeout`.
        static func waitUntilStable(_ url: URL, quiet: Duration, timeout: Duration) async throws {
            let deadline = ContinuousClock.now + timeout
            var lastSize = -1
            var stableSince = ContinuousClock.now
            while ContinuousClock.now < deadline {
                let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
                if size != lastSize {
                    lastSize = size
                    stableSince = ContinuousClock.now
                } else if ContinuousClock.now - stableSince >= quiet {
                    return
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
