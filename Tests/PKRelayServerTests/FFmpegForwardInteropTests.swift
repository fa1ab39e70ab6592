import Foundation
import PKRelayClient
import PostgresTestSupport
import Protocol
import SecureTransport
import Testing

/// ffmpeg publishes VP8 over SDES-keyed SRTP into room 1; the anchor forwards into room 2; an
/// ffmpeg receiver subscribed in room 2 (started first, from an SDP file) decodes the stream.
extension RealClientInterop {
    @Suite("ffmpeg forward interop", .serialized, .timeLimit(.minutes(2)))
    struct FFmpegForwardInteropTests {
        static let ffmpeg = RealClientInterop.FFmpegInteropTests.ffmpeg
        static let profile = SRTPProfile.aesCM128HMACSHA1_80

        @Test(
            "ffmpeg to room 1, forwarded to room 2, to ffmpeg: the frames decode",
            .enabled(if: RealClientInterop.FFmpegInteropTests.isAvailable, "ffmpeg is not installed at /usr/bin/ffmpeg: forward interop test skipped"))
        func decodesThroughForward() async throws {
            try await TestRelay.with { relay in
                try await Self.forwardAndDecode(source: relay, target: relay, "ffmpeg forward interop")
            }
        }

        @Test(
            "ffmpeg to room 1 on node a, forwarded to room 2 on node b, to ffmpeg: the frames decode",
            .enabled(if: RealClientInterop.FFmpegInteropTests.isAvailable && PostgresTestServer.isAvailable, "needs ffmpeg and PostgreSQL"))
        func decodesAcrossNodes() async throws {
            try await ClusterForwardTests.withTwoNodes { relayA, relayB in
                try await Self.forwardAndDecode(source: relayA, target: relayB, "ffmpeg forward across nodes")
            }
        }

        /// ffmpeg publishes into room ff1 on `source`; ff1's anchor forwards into ff2 on `target`,
        /// where an ffmpeg receiver decodes what arrives.
        static func forwardAndDecode(source: TestRelay, target: TestRelay, _ context: String) async throws {
            let seconds = 5
            let frameRate = 30
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkrelay-ffmpeg-forward-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }

            do {
                // Anchor A in room 1: one transport for ffmpeg's video.
                let anchor = try await source.join(room: "ff1", user: "A")
                let videoIn: CreateTransportResult = try await anchor.request("createTransport", CreateTransportParams(srtpProfile: Self.profile.rawValue))
                let videoKey = SDESKeying.encodeBase64(SDESKeying.generateKeyingMaterial(for: Self.profile))
                try await anchor.call("connectTransport", ConnectTransportParams(transportId: videoIn.transportId, srtpKey: videoKey))
                let _: PublishStreamResult = try await anchor.request(
                    "publishStream",
                    PublishStreamParams(
                        roomId: "ff1", streamIndex: .main, transportId: videoIn.transportId,
                        tracks: [
                            TrackDescription(kind: .video, ssrc: 33_333_333, payloadType: 96, codec: "VP8", clockRate: 90000)
                        ]))

                // The receiver joins room 2 first, with a transport sending to ffmpeg's port.
                let receiverClient = try await target.connect()
                let videoOut: CreateTransportResult = try await receiverClient.request(
                    "createTransport", CreateTransportParams(srtpProfile: Self.profile.rawValue))
                let (videoPort, _) = try LocalPorts.twoFreePairs()
                try await MediaHelpers.connectForPlayer(receiverClient, transport: videoOut, port: videoPort)
                let _: JoinRoomResult = try await receiverClient.request(
                    "joinRoom",
                    JoinRoomParams(
                        token: TestRelay.token(room: "ff2", user: "ffsub"), roomId: "ff2", userId: "ffsub", role: .audience, visible: false))
                let receiverMark = await receiverClient.eventCount

                // A forwards into room 2; the receiver subscribes once A publishes there.
                let forwardStarted = ContinuousClock.now
                let started: ForwardStreamResult = try await anchor.request(
                    "startForwardStreamToRooms",
                    StartForwardParams(
                        roomId: "ff1", targets: [ForwardTargetParams(roomId: "ff2", token: TestRelay.token(room: "ff2", user: "A"))]))
                let forwardAnswered = ContinuousClock.now
                #expect(started.infos == [ForwardStreamStateInfo(roomId: "ff2", state: ForwardState.success.rawValue, error: 0)], "\(started)")
                try await ForwardingHelpers.waitForSequence(
                    receiverClient, from: receiverMark, "ffsub: A appears in ff2", ForwardingHelpers.appeared("A", from: "ff1"))
                let subscribed: SubscribeStreamResult = try await receiverClient.request(
                    "subscribeStream",
                    SubscribeStreamParams(
                        roomId: "ff2", userId: "A", streamIndex: .main, transportId: videoOut.transportId))
                let videoSSRC = try #require(subscribed.tracks.first { $0.kind == .video }?.ssrc, "\(subscribed)")
                #expect(videoSSRC != 33_333_333)

                let sdp = """
                    v=0
                    o=- 0 0 IN IP4 127.0.0.1
                    s=PKRelay forwarded subscriber
                    c=IN IP4 127.0.0.1
                    t=0 0
                    m=video \(videoPort) RTP/SAVP 96
                    a=rtpmap:96 VP8/90000
                    a=crypto:1 \(Self.profile.rawValue) inline:\(videoOut.srtp!.key)

                    """
                let sdpURL = directory.appendingPathComponent("recv.sdp")
                let crcURL = directory.appendingPathComponent("frames.crc")
                try sdp.write(to: sdpURL, atomically: true, encoding: .utf8)
                let receiver = try ExternalProcess(
                    executable: Self.ffmpeg,
                    arguments: [
                        "-nostdin", "-hide_banner", "-loglevel", "warning",
                        "-protocol_whitelist", "file,udp,rtp,srtp", "-reorder_queue_size", "0",
                        "-analyzeduration", "3000000", "-i", sdpURL.path,
                        "-map", "0:v", "-flush_packets", "1", "-f", "framecrc", "-y", crcURL.path,
                    ], stderrURL: directory.appendingPathComponent("receiver.log"))
                defer { if receiver.isRunning { kill(receiver.process.processIdentifier, SIGKILL) } }
                try await LocalPorts.waitUntilBound([videoPort], by: receiver, timeout: .seconds(30))

                let anchorMark = await anchor.eventCount
                let senderLaunched = ContinuousClock.now
                let sender = try ExternalProcess(
                    executable: Self.ffmpeg,
                    arguments: [
                        "-nostdin", "-hide_banner", "-loglevel", "error", "-re",
                        "-f", "lavfi", "-i", "testsrc=size=320x240:rate=\(frameRate)",
                        "-map", "0:v", "-t", "\(seconds)", "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8",
                        "-b:v", "500k", "-g", "\(frameRate)", "-auto-alt-ref", "0",
                        "-payload_type", "96", "-ssrc", "33333333", "-f", "rtp",
                        "-srtp_out_suite", Self.profile.rawValue, "-srtp_out_params", videoKey,
                        "srtp://127.0.0.1:\(videoIn.port)?rtcpport=\(videoIn.port)&pkt_size=1200",
                    ], stderrURL: directory.appendingPathComponent("sender.log"))
                defer { if sender.isRunning { kill(sender.process.processIdentifier, SIGKILL) } }

                // The forward reports when ffmpeg's first keyframe reached the room-2 subscriber.
                let firstKeyframe: ForwardFirstKeyframeEvent
                do {
                    firstKeyframe = try await ForwardingHelpers.waitForSequence(
                        anchor, from: anchorMark, "A: first keyframe into ff2", timeout: .seconds(30),
                        [
                            { $0.forwardFirstKeyframe?.targetRoomId == "ff2" }
                        ])[0].forwardFirstKeyframe!
                } catch {
                    let counters =
                        (try? await source.metrics())?.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasSuffix(" 0") && $0.contains("pkrelay_") }
                        .joined(separator: ", ") ?? ""
                    Issue.record("\(error); relay counters [\(counters)]; sender running \(sender.isRunning): \(sender.stderrTail)")
                    return
                }
                let seenAt = ContinuousClock.now
                // The relay's clock starts somewhere between sending the request and reading the answer,
                // so those two instants bound elapsedMs whatever the machine's load (±1 ms of rounding).
                let launchOffset = senderLaunched - forwardAnswered
                let elapsed = Duration.milliseconds(firstKeyframe.elapsedMs)
                #expect(firstKeyframe.via == "forward" && firstKeyframe.roomId == "ff1" && firstKeyframe.userId == "A")
                #expect(
                    elapsed >= launchOffset - .milliseconds(1) && elapsed <= seenAt - forwardStarted + .milliseconds(1),
                    Comment(rawValue: "elapsedMs \(firstKeyframe.elapsedMs): after ffmpeg started (\(launchOffset) after the forward's answer) and before the "
                        + "event came (\(seenAt - forwardStarted) after its request)")
                )

                let senderStatus = try await sender.waitForExit(timeout: .seconds(seconds + 15))
                #expect(senderStatus == 0, "ffmpeg sender failed: \(sender.stderrTail)")
                try await RealClientInterop.FFmpegInteropTests.waitUntilStable(crcURL, quiet: .milliseconds(1000), timeout: .seconds(8))
                await receiver.interruptAndWait()

                let lines = ((try? String(contentsOf: crcURL, encoding: .utf8)) ?? "").split(separator: "\n")
                let frames = lines.filter { $0.hasPrefix("0,") }.count
                let stats: GetStatsResult = try await receiverClient.request("getStats", GetStatsParams())
                let relayed = stats.subscribed.first { $0.ssrc == videoSSRC }?.packets ?? 0
                let drops =
                    (try? await target.metrics())?.split(separator: "\n").filter { $0.hasPrefix("pkrelay_dropped_packets_total") && !$0.hasSuffix(" 0") }
                    .joined(separator: ", ") ?? ""
                // Conservative: every frame from 1.5 s in (a keyframe comes every second).
                let expected = Int(Double(frameRate) * (Double(seconds) - 1.5))
                #expect(
                    frames >= expected,
                    Comment(rawValue: "\(frames) frames decoded, expected at least \(expected) of \(seconds * frameRate); relayed \(relayed) packets; drops "
                        + "[\(drops)]; elapsedMs \(firstKeyframe.elapsedMs); receiver: \(receiver.stderrTail)")
                )
                #expect(frames <= seconds * frameRate + 2, "no more frames than sent: \(frames)")
                print(
                    "\(context): \(frames) of \(seconds * frameRate) frames decoded, first keyframe elapsedMs \(firstKeyframe.elapsedMs) "
                        + "(ffmpeg launched \(launchOffset) after the forward)"
                )

                try await anchor.call("stopForwardStreamToRooms", RoomParams(roomId: "ff1"))
                try await source.waitForMetric("pkrelay_forwards") { $0 == 0 }
                await anchor.close()
                await receiverClient.close()
            }
        }
    }
}
