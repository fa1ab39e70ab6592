import PKRelayClient
import Protocol
import SecureTransport
import Testing

/// A publisher that sends each frame as one segmented message, as a sender with GSO does: with
/// receive offload on, the relay reads each frame as one message and cuts it up; either way the
/// subscriber gets every packet in order, decryptable.
@Suite(.timeLimit(.minutes(1)))
struct UDPOffloadRelayTests {
    @Test func framesSentAsSegmentedMessagesArriveWholeAndInOrder() async throws {
        try await TestRelay.with { relay in
            let publisher = try await TestPublisher.start(
                relay, room: "gro", user: "anchor", profile: .aeadAES128GCM, videoSSRC: 0x6060_0001, audioSSRC: 0x6060_0002, videoOnly: true)
            let subscriber = try await TestSubscriber.start(relay, room: "gro", user: "viewer", publisher: "anchor", profile: .aeadAES128GCM)
            var sent: [OutgoingRTPPacket] = []
            for index in 0..<10 {
                // Five equal packets and a shorter last one per frame.
                let frame = publisher.video.nextFrame(keyframe: index == 0, size: 5 * 1100 + 300)
                try publisher.endpoint.sendSegmented(frame)
                sent += frame
                try await Task.sleep(for: .milliseconds(5))
            }
            try await subscriber.waitFor(videoPayload: try #require(sent.last).payload)
            let received = subscriber.video
            #expect(received.map(\.payload) == sent.map(\.payload), "every packet, in order")
            #expect(MediaHelpers.isContinuous(received.map(\.sequenceNumber)), "\(MediaHelpers.firstGap(received.map(\.sequenceNumber)))")

            let values = try await relay.waitForMetric("pkrelay_packets_in_total") { $0 >= UInt64(sent.count) }
            let counts = try await relay.metrics(["pkrelay_media_gro", "pkrelay_packets_in_total", "pkrelay_media_receive_messages_total"])
            let messages = try #require(counts["pkrelay_media_receive_messages_total"])
            let datagrams = try #require(counts["pkrelay_packets_in_total"])
            #expect(values > 0 && messages > 0)
            if counts["pkrelay_media_gro"] == 1 {
                // Ten frames of six packets arrived as ten messages (plus RTCP, read alone).
                #expect(datagrams - messages >= 50, "\(counts)")
            } else {
                #expect(messages == datagrams, "\(counts)")
            }
            await subscriber.client.close()
            await publisher.client.close()
        }
    }
}
