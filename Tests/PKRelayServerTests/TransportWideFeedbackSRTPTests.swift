import Foundation
import PKRelayClient
import PKRelayServer
import Protocol
import RTPWire
import SecureTransport
import StreamCore
import Testing

/// Transport-wide congestion control on SRTP transports (`createTransport`
/// `transportWideSequenceExtensionId`), on loopback with real UDP and SRTP: feedback to a
/// publisher whose packets carry the numbers, numbers stamped on what a subscriber receives, and
/// the subscriber's feedback driving the relay's estimate of its downlink.
@Suite("Transport-wide feedback on SRTP transports", .timeLimit(.minutes(1)))
struct TransportWideFeedbackSRTPTests {
    static let publisherExtensionId: UInt8 = 3
    static let subscriberExtensionId: UInt8 = 5

    /// The transport-wide number under `id` in a received packet, if it carries one.
    static func transportWideNumber(of packet: ReceivedRTPPacket, id: UInt8) -> UInt16? {
        let bytes = packet.header + packet.payload
        return bytes.withUnsafeBytes { buffer in
            guard let header = RTPHeader.parse(buffer) else { return nil }
            return RTPHeaderExtensions.transportWideSequenceNumber(in: buffer, header: header, id: id)
        }
    }

    @Test("a publisher gets feedback, a subscriber gets numbers and its feedback drives its estimate")
    func feedbackBothWays() async throws {
        try await TestRelay.with { relay in
            let anchor = try await relay.join(room: "tw", user: "anchor")
            let published: CreateTransportResult = try await anchor.request(
                "createTransport", CreateTransportParams(transportWideSequenceExtensionId: Int(Self.publisherExtensionId)))
            #expect(published.transportWideSequenceExtensionId == Int(Self.publisherExtensionId), "the relay takes part")
            let publisher = try MediaEndpoint(transport: published)
            try await anchor.call("connectTransport", publisher.connectParams(latch: true))
            var video = VP8Packetizer(ssrc: 0x7777_0001)
            let _: PublishStreamResult = try await anchor.request(
                "publishStream",
                PublishStreamParams(
                    roomId: "tw", streamIndex: .main, transportId: published.transportId,
                    tracks: [TrackDescription(kind: .video, ssrc: video.ssrc, payloadType: 96, codec: "VP8", clockRate: 90000)]))
            var publisherNumber: UInt16 = 0
            func sendFrame(keyframe: Bool) throws {
                for var packet in video.nextFrame(keyframe: keyframe) {
                    packet.headerExtension = [Self.publisherExtensionId << 4 | 1, UInt8(publisherNumber >> 8), UInt8(publisherNumber & 0xFF)]
                    publisherNumber &+= 1
                    try publisher.send(packet)
                }
            }
            try sendFrame(keyframe: true)

            let viewer = try await relay.join(room: "tw", user: "viewer")
            let watched: CreateTransportResult = try await viewer.request(
                "createTransport", CreateTransportParams(transportWideSequenceExtensionId: Int(Self.subscriberExtensionId)))
            let subscriber = try MediaEndpoint(transport: watched)
            try await viewer.call("connectTransport", subscriber.connectParams())
            try subscriber.proveAddress()
            let subscribed: SubscribeStreamResult = try await viewer.request(
                "subscribeStream", SubscribeStreamParams(roomId: "tw", userId: "anchor", streamIndex: .main, transportId: watched.transportId))
            let ssrc = try #require(subscribed.tracks.first { $0.kind == .video }?.ssrc)

            // Frames a few milliseconds apart; the viewer's keyframe request is answered by a keyframe.
            for index in 0..<30 {
                try sendFrame(keyframe: index % 10 == 0)
                try await Task.sleep(for: .milliseconds(5))
            }
            let feedback = try await publisher.waitForRTCP(timeout: .seconds(5), "transport-wide feedback to the publisher") {
                $0.packetType == 205 && $0.format == 15
            }
            #expect(feedback.senderSSRC != 0 && feedback.mediaSSRC == video.ssrc, "\(feedback)")

            let received = try await subscriber.waitForRTP(timeout: .seconds(5), "video at the viewer") { $0.filter { $0.ssrc == ssrc }.count >= 10 }
            let numbers = received.compactMap { Self.transportWideNumber(of: $0, id: Self.subscriberExtensionId) }
            #expect(numbers.count == received.count, "every packet to the viewer carries the relay's transport-wide number")
            #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 &+ 1 }, "one number after the other: \(numbers)")
            #expect(
                received.allSatisfy { Self.transportWideNumber(of: $0, id: Self.publisherExtensionId) == nil },
                "the publisher's own numbers are not forwarded")

            // Repairs go on the sink's own retransmission stream: on the track's SSRC a repair
            // would carry a new transport-wide number under the first copy's SRTP index. The
            // publisher names no RTX, so the relay picks a free payload type.
            let videoTrack = try #require(subscribed.tracks.first { $0.kind == .video })
            let rtxSSRC = try #require(videoTrack.rtxSSRC)
            #expect(videoTrack.rtxPayloadType == 97 && rtxSSRC != ssrc)
            let nacked = try #require(received.filter { $0.ssrc == ssrc }.dropLast(2).last)
            let originalNumber = [UInt8(nacked.sequenceNumber >> 8), UInt8(nacked.sequenceNumber & 0xFF)]
            try subscriber.sendGenericNACK(senderSSRC: 0x5EED_0005, mediaSSRC: ssrc, sequenceNumbers: [nacked.sequenceNumber])
            let afterNACK = try await subscriber.waitForRTP(timeout: .seconds(5), "the repair on the retransmission stream") { packets in
                packets.contains { $0.ssrc == rtxSSRC && Array($0.payload.prefix(2)) == originalNumber }
            }
            let repair = try #require(afterNACK.first { $0.ssrc == rtxSSRC && Array($0.payload.prefix(2)) == originalNumber })
            #expect(repair.payloadType == 97 && Array(repair.payload.dropFirst(2)) == nacked.payload, "the repair wraps the packet asked for")
            #expect(Self.transportWideNumber(of: repair, id: Self.subscriberExtensionId) != nil, "the repair has a transport-wide number of its own")

            // The viewer reports what arrived, as a receiver of transport-cc does.
            let recorder = TransportFeedbackRecorder()
            let origin = try #require(received.first?.receivedAt)
            for (packet, number) in zip(received, numbers) {
                let elapsed = packet.receivedAt - origin
                let arrivalUs = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
                recorder.record(
                    sequenceNumber: number, arrivalUs: 1_000_000 + arrivalUs, ssrc: packet.ssrc, bytes: packet.header.count + packet.payload.count + 16)
            }
            var report = [UInt8](repeating: 0, count: 1200)
            let length = try #require(report.withUnsafeMutableBytes { recorder.writeFeedback(senderSSRC: 0x5EED_0005, into: $0, at: 0, nowUs: 2_000_000) })
            try subscriber.sendRTCP(Array(report[0..<length]))
            let stats = try await MediaRelayTests.waitForStats(viewer, "the viewer's estimate from its feedback") { stats in
                stats.transports.first { $0.transportId == watched.transportId }?.bandwidthEstimate?.feedbacks ?? 0 >= 1
            }
            let estimate = try #require(stats.transports.first { $0.transportId == watched.transportId }?.bandwidthEstimate)
            #expect(estimate.source == "transport_wide" && estimate.feedbacks == 1 && estimate.estimateBps > 0, "\(estimate)")
            // The counters reach /metrics with the next media report.
            var counted: [String: UInt64] = [:]
            for _ in 0..<50 {
                counted = try await relay.metrics(["pkrelay_transport_feedback_received_total", "pkrelay_transport_feedback_sent_total"])
                if counted["pkrelay_transport_feedback_received_total"] == 1 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(counted["pkrelay_transport_feedback_received_total"] == 1 && counted["pkrelay_transport_feedback_sent_total"] ?? 0 >= 1, "\(counted)")

            subscriber.close()
            publisher.close()
            await viewer.close()
            await anchor.close()
        }
    }

    @Test("the extension id is checked, and WebRTC transports negotiate it in SDP")
    func badExtensionIds() async throws {
        try await TestRelay.with { relay in
            let client = try await relay.join(room: "tw", user: "alice")
            for id in [0, 15, -1, 255] {
                let refused = await #expect(throws: ControlClientError.self) {
                    let _: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(transportWideSequenceExtensionId: id))
                }
                #expect(refused?.relayError?.code == .invalidParams, "id \(id): \(String(describing: refused))")
                #expect(refused?.relayError?.message.contains("1-14") == true, "id \(id): \(String(describing: refused))")
            }
            let webRTC = await #expect(throws: ControlClientError.self) {
                let _: CreateTransportResult = try await client.request(
                    "createTransport", CreateTransportParams(kind: "webrtc", transportWideSequenceExtensionId: 5))
            }
            #expect(webRTC?.relayError?.code == .invalidParams && webRTC?.relayError?.message.contains("SDP") == true, "\(String(describing: webRTC))")
            // Still usable, and a transport that asks for nothing is told nothing.
            let plain: CreateTransportResult = try await client.request("createTransport", CreateTransportParams())
            #expect(plain.transportWideSequenceExtensionId == nil)
            await client.close()
        }
    }

    @Test("with transport-wide congestion control off, the request is declined in the result")
    func declinedWhenOff() async throws {
        try await TestRelay.with({ $0.congestionFeedback = false }) { relay in
            let client = try await relay.join(room: "tw", user: "alice")
            let created: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(transportWideSequenceExtensionId: 4))
            #expect(created.transportWideSequenceExtensionId == nil && created.srtp != nil)
            await client.close()
        }
    }
}
