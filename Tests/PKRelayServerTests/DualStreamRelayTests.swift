import Foundation
import PKRelayClient
import Protocol
import SecureTransport
import Testing

/// Dual stream end to end: a publisher sending a big and a small VP8 encoding, subscribers on
/// either, a switch checked for continuity, and a PK target room choosing small.
@Suite("Dual stream end to end", .timeLimit(.minutes(1)))
struct DualStreamRelayTests {
    static let profile = SRTPProfile.aeadAES128GCM
    /// Big frames are 2500 bytes (three packets), small ones 600 (one packet), so the payloads
    /// of the two encodings never coincide.
    static let bigFrameSize = 2500
    static let smallFrameSize = 600

    /// A publisher with a big and a small video encoding on one transport.
    final class DualPublisher {
        let client: ControlClient
        let endpoint: MediaEndpoint
        var big = VP8Packetizer(ssrc: 0xB1B1_0001)
        var small = VP8Packetizer(ssrc: 0x5A5A_0001)
        var sentBig: [OutgoingRTPPacket] = []
        var sentSmall: [OutgoingRTPPacket] = []
        /// With `audio`, an Opus track too: one 20 ms silence frame per frame pair sent.
        let audioSSRC: UInt32?
        var audioPackets = 0

        init(_ relay: TestRelay, room: String, user: String, audio: Bool = false) async throws {
            client = try await relay.join(room: room, user: user)
            endpoint = try await MediaHelpers.openEndpoint(client, profile: DualStreamRelayTests.profile, latch: true)
            audioSSRC = audio ? 0xA0D1_0001 : nil
            var tracks = [
                TrackDescription(kind: .video, ssrc: big.ssrc, payloadType: 96, codec: "VP8", clockRate: 90_000),
                TrackDescription(kind: .video, ssrc: small.ssrc, payloadType: 96, codec: "VP8", clockRate: 90_000, videoStreamType: .small),
            ]
            if let audioSSRC {
                tracks.append(TrackDescription(kind: .audio, ssrc: audioSSRC, payloadType: 111, codec: "opus", clockRate: 48_000, channels: 2))
            }
            let _: PublishStreamResult = try await client.request(
                "publishStream", PublishStreamParams(roomId: room, transportId: endpoint.transportId, tracks: tracks))
        }

        /// Sends `count` frame pairs a few milliseconds apart, with keyframes of each layer at the
        /// given indexes; `big` false sends the small frames alone (the big encoding stopped).
        func send(_ count: Int, bigKeyframes: Set<Int> = [], smallKeyframes: Set<Int> = [], big sendsBig: Bool = true) async throws {
            for index in 0..<count {
                if sendsBig {
                    let bigFrame = big.nextFrame(keyframe: bigKeyframes.contains(index), size: DualStreamRelayTests.bigFrameSize)
                    try endpoint.send(bigFrame)
                    sentBig += bigFrame
                }
                let smallFrame = small.nextFrame(keyframe: smallKeyframes.contains(index), size: DualStreamRelayTests.smallFrameSize)
                try endpoint.send(smallFrame)
                sentSmall += smallFrame
                if let audioSSRC {
                    // An Opus silence frame (TOC 0xF8: CELT fullband 20 ms, mono, one frame).
                    try endpoint.send(
                        OutgoingRTPPacket(
                            marker: false, payloadType: 111, sequenceNumber: UInt16(truncatingIfNeeded: audioPackets),
                            timestamp: UInt32(truncatingIfNeeded: audioPackets * 960), ssrc: audioSSRC, payload: [0xF8, 0xFF, 0xFE]))
                    audioPackets += 1
                }
                try await Task.sleep(for: .milliseconds(4))
            }
        }

        func pictureLossIndications(for ssrc: UInt32) -> Int {
            endpoint.receivedRTCP().filter { $0.isPictureLossIndication && $0.mediaSSRC == ssrc }.count
        }
    }

    /// A joined viewer with one transport, subscribed to `publisher` for `streamType`.
    static func subscriber(
        _ relay: TestRelay, room: String, user: String, to publisher: String, _ streamType: VideoStreamType?
    ) async throws -> (ControlClient, MediaEndpoint, SubscribedTrack) {
        let client = try await relay.join(room: room, user: user)
        let endpoint = try await MediaHelpers.openEndpoint(client, profile: profile, latch: false)
        let result: SubscribeStreamResult = try await client.request(
            "subscribeStream",
            SubscribeStreamParams(
                roomId: room, userId: publisher, mediaType: MediaType.video, transportId: endpoint.transportId, videoStreamType: streamType))
        let video = try #require(result.tracks.first { $0.kind == .video })
        return (client, endpoint, video)
    }

    static func waitFor(_ endpoint: MediaEndpoint, ssrc: UInt32, payload: [UInt8], _ what: String) async throws {
        try await endpoint.waitForRTP(timeout: .seconds(5), what) { packets in packets.contains { $0.ssrc == ssrc && $0.payload == payload } }
    }

    @Test("two subscribers on different layers, one switching at a keyframe with continuous numbering")
    func layersAndSwitch() async throws {
        try await TestRelay.with { relay in
            let publisher = try await DualPublisher(relay, room: "pk", user: "anchor")
            try await publisher.send(1, bigKeyframes: [0], smallKeyframes: [0])  // latches the publisher
            let (_, bigEndpoint, bigTrack) = try await Self.subscriber(relay, room: "pk", user: "big-viewer", to: "anchor", nil)
            let (switcher, smallEndpoint, smallTrack) = try await Self.subscriber(relay, room: "pk", user: "small-viewer", to: "anchor", .small)
            #expect(bigTrack.videoStreamType == .big && smallTrack.videoStreamType == .small)

            try await publisher.send(30, bigKeyframes: [2, 15], smallKeyframes: [2, 10, 20])
            try await Self.waitFor(bigEndpoint, ssrc: bigTrack.ssrc, payload: publisher.sentBig.last!.payload, "big viewer: the last big packet")
            try await Self.waitFor(smallEndpoint, ssrc: smallTrack.ssrc, payload: publisher.sentSmall.last!.payload, "small viewer: the last small packet")
            let bigPayloads = Set(publisher.sentBig.map(\.payload))
            let smallPayloads = Set(publisher.sentSmall.map(\.payload))
            #expect(bigEndpoint.receivedRTP(ssrc: bigTrack.ssrc).allSatisfy { bigPayloads.contains($0.payload) }, "the big viewer gets only big packets")
            #expect(
                smallEndpoint.receivedRTP(ssrc: smallTrack.ssrc).allSatisfy { smallPayloads.contains($0.payload) }, "the small viewer gets only small packets")

            // Switch the small viewer to big: the relay asks the big layer for a keyframe at once
            // and keeps sending small until that keyframe arrives.
            let requestsBefore = publisher.pictureLossIndications(for: publisher.big.ssrc)
            let switched: SubscribeStreamResult = try await switcher.request(
                "setRemoteVideoStreamType",
                SetRemoteVideoStreamTypeParams(
                    roomId: "pk", userId: "anchor", streamType: .big))
            let switchedTrack = try #require(switched.tracks.first { $0.kind == .video })
            #expect(switchedTrack.videoStreamType == .big && switchedTrack.ssrc == smallTrack.ssrc)
            let deadline = ContinuousClock.now + .seconds(5)
            while publisher.pictureLossIndications(for: publisher.big.ssrc) <= requestsBefore {
                guard ContinuousClock.now < deadline else { throw TimeoutError(duration: .seconds(5), what: "a keyframe request for the big layer") }
                try await Task.sleep(for: .milliseconds(10))
            }
            let smallBeforeSwitch = publisher.sentSmall.count
            let bigBeforeSwitch = publisher.sentBig.count
            try await publisher.send(5)
            let smallUntilKeyframe = Array(publisher.sentSmall[smallBeforeSwitch...])
            let keyframeIndex = publisher.sentBig.count
            try await publisher.send(10, bigKeyframes: [0])
            try await Self.waitFor(smallEndpoint, ssrc: smallTrack.ssrc, payload: publisher.sentBig.last!.payload, "switched viewer: the last big packet")

            let received = smallEndpoint.receivedRTP(ssrc: smallTrack.ssrc)
            let sequence = received.map(\.sequenceNumber)
            #expect(MediaHelpers.isContinuous(sequence), "one stream across the switch: gap \(MediaHelpers.firstGap(sequence))")
            #expect(
                zip(received, received.dropFirst()).allSatisfy { $1.timestamp == $0.timestamp || MediaHelpers.isAfter($1.timestamp, $0.timestamp) },
                "timestamps never go backwards across the switch")
            let bigAfterSwitch = Set(publisher.sentBig[bigBeforeSwitch...].map(\.payload))
            let firstBig = try #require(received.firstIndex { bigAfterSwitch.contains($0.payload) })
            #expect(VP8Packetizer.isKeyframe(payload: received[firstBig].payload), "the first big packet the switched viewer gets is a keyframe")
            #expect(received[firstBig].payload == publisher.sentBig[keyframeIndex].payload, "it is the keyframe sent after the switch")
            #expect(received[firstBig...].map(\.payload) == publisher.sentBig[keyframeIndex...].map(\.payload), "big from the keyframe on, nothing lost")
            let smallAfterRequest = Set(smallUntilKeyframe.map(\.payload))
            #expect(
                received[..<firstBig].filter { smallAfterRequest.contains($0.payload) }.count == smallUntilKeyframe.count,
                "small kept flowing until the big keyframe: no pause")
            #expect(smallEndpoint.counters.authenticationFailures == 0)
        }
    }

    @Test("a viewer in a PK target room chooses the small layer of a forwarded anchor")
    func forwardedSmallLayer() async throws {
        try await TestRelay.with { relay in
            let publisher = try await DualPublisher(relay, room: "r1", user: "A")
            try await publisher.send(1, bigKeyframes: [0], smallKeyframes: [0])
            let viewer = try await Viewer.join(relay, room: "r2", user: "v2", autoSubscribe: false)
            let mark = await viewer.mark()
            let _: ForwardStreamResult = try await publisher.client.request(
                "startForwardStreamToRooms",
                StartForwardParams(
                    roomId: "r1", targets: [ForwardTargetParams(roomId: "r2", token: TestRelay.token(room: "r2", user: "A"))]))
            try await ForwardingHelpers.waitForSequence(viewer.client, from: mark, "A appears in r2", ForwardingHelpers.appeared("A", from: "r1"))
            let result: SubscribeStreamResult = try await viewer.client.request(
                "subscribeStream",
                SubscribeStreamParams(
                    roomId: "r2", userId: "A", mediaType: MediaType.video, transportId: viewer.endpoint.transportId, videoStreamType: .small))
            let track = try #require(result.tracks.first { $0.kind == .video })
            #expect(track.videoStreamType == .small)

            try await publisher.send(20, bigKeyframes: [1], smallKeyframes: [3])
            try await Self.waitFor(viewer.endpoint, ssrc: track.ssrc, payload: publisher.sentSmall.last!.payload, "r2 viewer: the last small packet")
            let received = viewer.received(track.ssrc)
            ForwardingHelpers.checkRun(received, sent: publisher.sentSmall, video: true, "r2 viewer, small layer")
            let bigPayloads = Set(publisher.sentBig.map(\.payload))
            #expect(!received.contains { bigPayloads.contains($0.payload) }, "no big packets reach the small viewer")
        }
    }
}
