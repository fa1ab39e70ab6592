import PKRelayClient
import PKRelayServer
import Protocol
import RTPWire
import SecureTransport
import Testing

/// A publisher's RFC 4588 retransmission stream on real UDP and libsrtp: the relay NACKs a gap
/// at once, unwraps the RTX packet into the track, and the subscriber gets the lost packet
/// where it belongs.
@Suite("Publisher retransmission streams", .timeLimit(.minutes(1)))
struct RetransmissionStreamTests {
    static let videoSSRC: UInt32 = 0x7171_0001
    static let audioSSRC: UInt32 = 0x7171_0002
    static let rtxSSRC: UInt32 = 0x7171_00F1
    static let rtxPayloadType: UInt8 = 97

    /// The tracks of a publisher whose video has an RTX stream.
    static func tracksWithRetransmission() -> [TrackDescription] {
        var tracks = MediaHelpers.tracks(video: videoSSRC, audio: audioSSRC)
        tracks[0].rtxSSRC = rtxSSRC
        tracks[0].rtxPayloadType = Int(rtxPayloadType)
        return tracks
    }

    /// `original` as an RTX packet: the stream's SSRC, payload type and sequence number, the
    /// original sequence number in front of the payload.
    static func rtx(of original: OutgoingRTPPacket, sequenceNumber: UInt16, payloadType: UInt8 = rtxPayloadType, payload: [UInt8]? = nil) -> OutgoingRTPPacket {
        OutgoingRTPPacket(
            marker: original.marker, payloadType: payloadType, sequenceNumber: sequenceNumber, timestamp: original.timestamp, ssrc: rtxSSRC,
            payload: payload ?? [UInt8(original.sequenceNumber >> 8), UInt8(original.sequenceNumber & 0xFF)] + original.payload)
    }

    @Test("a lost packet is NACKed at once and its RTX copy reaches the subscriber in place", arguments: [SRTPProfile.aeadAES128GCM, .aesCM128HMACSHA1_80])
    func lostPacketComesBackOverRTX(profile: SRTPProfile) async throws {
        try await TestRelay.with { relay in
            let client = try await relay.join(room: "rtx", user: "anchor")
            let endpoint = try await MediaHelpers.openEndpoint(client, profile: profile, latch: true)
            let publisher = TestPublisher(client: client, endpoint: endpoint, roomId: "rtx", videoSSRC: Self.videoSSRC, audioSSRC: Self.audioSSRC)
            let _: PublishStreamResult = try await client.request(
                "publishStream",
                PublishStreamParams(
                    roomId: "rtx", streamIndex: .main, transportId: endpoint.transportId, tracks: Self.tracksWithRetransmission()))
            try publisher.sendFrame(keyframe: true)
            let subscriber = try await TestSubscriber.start(relay, room: "rtx", user: "viewer", publisher: "anchor", profile: profile)
            let keyframe = try publisher.sendFrame(keyframe: true, withAudio: false)
            try await subscriber.waitFor(videoPayload: keyframe.last!.payload)

            // A three-packet frame whose middle packet is lost on the way.
            let frame = publisher.video.nextFrame(keyframe: false)
            try #require(frame.count == 3)
            try endpoint.send([frame[0], frame[2]])
            let nack = try await endpoint.waitForRTCP("the relay's NACK") { $0.isGenericNACK && $0.mediaSSRC == Self.videoSSRC }
            #expect(nack.nackedSequenceNumbers == [frame[1].sequenceNumber])

            // Broken RTX packets change nothing: too short, or another payload type.
            try endpoint.send(Self.rtx(of: frame[1], sequenceNumber: 900, payload: [0x01]))
            try endpoint.send(Self.rtx(of: frame[1], sequenceNumber: 901, payloadType: 98))
            try endpoint.send(Self.rtx(of: frame[1], sequenceNumber: 902))
            try await subscriber.waitFor(videoPayload: frame[1].payload)

            let received = subscriber.video
            guard let first = received.firstIndex(where: { $0.payload == frame[0].payload }),
                let repaired = received.firstIndex(where: { $0.payload == frame[1].payload })
            else {
                Issue.record("the frame's packets did not arrive: \(received.count) video packets")
                return
            }
            #expect(received.filter { $0.payload == frame[1].payload }.count == 1, "the repaired packet arrives once")
            #expect(received[repaired].sequenceNumber == received[first].sequenceNumber &+ 1, "it takes the lost packet's place")
            #expect(received[repaired].timestamp == received[first].timestamp)
            #expect(received[repaired].ssrc == subscriber.videoSSRC && received[repaired].payloadType == 96)
            // The short one counts as received but carries nothing; the other payload type is not RTX.
            let rtxReceived = try await AdminHTTPClient.waitForMetric(port: relay.ports.admin, "pkrelay_retransmissions_received_total") { $0 >= 2 }
            #expect(rtxReceived == 2)
            _ = try await AdminHTTPClient.waitForMetric(port: relay.ports.admin, "pkrelay_nacks_sent_total") { $0 >= 1 }
        }
    }

    @Test(
        "an RTX stream must be complete, video, and distinct from the track",
        arguments: [
            (TrackKind.audio, UInt32(0x7171_00F1), 97, "for video tracks only"),
            (.video, 0x7171_0001, 97, "must not be 0 or the track's own SSRC"),
            (.video, 0x7171_00F1, 96, "must be 0-127 and differ from payloadType"),
            (.video, 0x7171_0002, 97, "used twice on transport"),
        ])
    func invalidRetransmissionStreams(kind: TrackKind, ssrc: UInt32, payloadType: Int, message: String) async throws {
        try await TestRelay.with { relay in
            let client = try await relay.join(room: "rtx", user: "anchor")
            let endpoint = try await MediaHelpers.openEndpoint(client, profile: .aeadAES128GCM, latch: true)
            var tracks = MediaHelpers.tracks(video: Self.videoSSRC, audio: Self.audioSSRC)
            let position = kind == .video ? 0 : 1
            tracks[position].rtxSSRC = ssrc
            tracks[position].rtxPayloadType = payloadType
            let error = await #expect(throws: ControlClientError.self) {
                let _: PublishStreamResult = try await client.request(
                    "publishStream",
                    PublishStreamParams(
                        roomId: "rtx", streamIndex: .main, transportId: endpoint.transportId, tracks: tracks))
            }
            #expect(error?.relayError?.code == .invalidParams && (error?.relayError?.message.contains(message) ?? false), "\(String(describing: error))")

            tracks = MediaHelpers.tracks(video: Self.videoSSRC, audio: Self.audioSSRC)
            tracks[0].rtxSSRC = Self.rtxSSRC
            let incomplete = await #expect(throws: ControlClientError.self) {
                let _: PublishStreamResult = try await client.request(
                    "publishStream",
                    PublishStreamParams(
                        roomId: "rtx", streamIndex: .main, transportId: endpoint.transportId, tracks: tracks))
            }
            #expect(incomplete?.relayError?.message.contains("go together") ?? false, "\(String(describing: incomplete))")
        }
    }
}
