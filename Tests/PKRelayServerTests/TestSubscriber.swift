import PKRelayClient
import Protocol
import SecureTransport

/// A synthetic subscriber: a joined control client, an endpoint connected with its address,
/// and the SSRCs the relay answered for the subscription.
struct TestSubscriber {
    let name: String
    let client: ControlClient
    let endpoint: MediaEndpoint
    let videoSSRC: UInt32
    let audioSSRC: UInt32?

    /// Joins, opens a transport and subscribes to `publisher`'s main stream.
    static func start(_ relay: TestRelay, room: String, user: String, publisher: String, profile: SRTPProfile) async throws -> TestSubscriber {
        let client = try await relay.join(room: room, user: user)
        // Receiving only: with the tests' media.spreadRoomAfter 0 it lives on another shard than
        // the publisher whenever that one is busier, and its media crosses a pipe.
        let endpoint = try await MediaHelpers.openEndpoint(client, profile: profile, latch: false, receiveOnly: true)
        let result: SubscribeStreamResult = try await client.request(
            "subscribeStream", SubscribeStreamParams(roomId: room, userId: publisher, streamIndex: .main, transportId: endpoint.transportId))
        // The same answer arrives as an event; read it so later ones can be told apart.
        _ = try await client.nextEvent(named: "onStreamSubscribed")
        guard result.state == .success, let video = result.tracks.first(where: { $0.kind == .video }) else {
            throw SubscriptionFailed(result: result)
        }
        for track in result.tracks {
            precondition(track.transportId == endpoint.transportId)
        }
        return TestSubscriber(name: user, client: client, endpoint: endpoint, videoSSRC: video.ssrc, audioSSRC: result.tracks.first { $0.kind == .audio }?.ssrc)
    }

    var video: [ReceivedRTPPacket] { endpoint.receivedRTP(ssrc: videoSSRC) }
    var audio: [ReceivedRTPPacket] { audioSSRC.map { endpoint.receivedRTP(ssrc: $0) } ?? [] }

    /// How many RTP packets arrived so far: pass it to `waitFor(…after:)` when a publisher
    /// repeats payloads it sent before (a new packetizer after a republish starts its pattern again).
    var receivedCount: Int { endpoint.receivedRTP().count }

    /// Waits until the video packet carrying `payload` (and the audio one, if given) arrived among
    /// the packets that came after the first `baseline` ones.
    func waitFor(videoPayload: [UInt8], audioPayload: [UInt8]? = nil, after baseline: Int = 0, timeout: Duration = .seconds(5)) async throws {
        let video = videoSSRC
        let audio = audioSSRC
        try await endpoint.waitForRTP(timeout: timeout, "\(name): the last packets sent") { received in
            let packets = received.dropFirst(baseline)
            return packets.contains { $0.ssrc == video && $0.payload == videoPayload }
                && (audioPayload == nil || packets.contains { $0.ssrc == audio && $0.payload == audioPayload })
        }
    }
}

struct SubscriptionFailed: Error { var result: SubscribeStreamResult }
