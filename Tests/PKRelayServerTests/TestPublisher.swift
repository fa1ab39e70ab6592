import PKRelayClient
import Protocol
import SecureTransport

/// A synthetic publisher: a joined control client, a latched media endpoint, and the packets it
/// has sent, per track.
final class TestPublisher {
    let client: ControlClient
    let endpoint: MediaEndpoint
    let roomId: String
    var video: VP8Packetizer
    var audio: OpusLikePacketizer
    var sentVideo: [OutgoingRTPPacket] = []
    var sentAudio: [OutgoingRTPPacket] = []

    init(client: ControlClient, endpoint: MediaEndpoint, roomId: String, videoSSRC: UInt32, audioSSRC: UInt32) {
        self.client = client
        self.endpoint = endpoint
        self.roomId = roomId
        video = VP8Packetizer(ssrc: videoSSRC)
        audio = OpusLikePacketizer(ssrc: audioSSRC)
    }

    /// Joins, opens a latching transport and publishes video (and audio unless `videoOnly`).
    static func start(
        _ relay: TestRelay, room: String, user: String, profile: SRTPProfile, videoSSRC: UInt32, audioSSRC: UInt32, videoOnly: Bool = false
    ) async throws -> TestPublisher {
        let client = try await relay.join(room: room, user: user)
        let endpoint = try await MediaHelpers.openEndpoint(client, profile: profile, latch: true)
        let publisher = TestPublisher(client: client, endpoint: endpoint, roomId: room, videoSSRC: videoSSRC, audioSSRC: audioSSRC)
        try await publisher.publish(videoOnly: videoOnly)
        return publisher
    }

    /// Publishes the main stream with the packetizers' SSRCs.
    func publish(videoOnly: Bool = false) async throws {
        var tracks = MediaHelpers.tracks(video: video.ssrc, audio: audio.ssrc)
        if videoOnly { tracks.removeLast() }
        let result: PublishStreamResult = try await client.request(
            "publishStream", PublishStreamParams(roomId: roomId, streamIndex: .main, transportId: endpoint.transportId, tracks: tracks))
        precondition(result.streamIndex == .main)
    }

    /// Sends one video frame (and one audio packet unless `withAudio` is false); returns the video packets.
    @discardableResult
    func sendFrame(keyframe: Bool, withAudio: Bool = true) throws -> [OutgoingRTPPacket] {
        let frame = video.nextFrame(keyframe: keyframe)
        try endpoint.send(frame)
        sentVideo += frame
        if withAudio {
            let packet = audio.nextPacket()
            try endpoint.send(packet)
            sentAudio.append(packet)
        }
        return frame
    }

    /// Sends `count` frames a few milliseconds apart; `keyframes` holds the indexes of keyframes.
    func sendFrames(_ count: Int, keyframes: Set<Int>, withAudio: Bool = true) async throws {
        for index in 0..<count {
            try sendFrame(keyframe: keyframes.contains(index), withAudio: withAudio)
            try await Task.sleep(for: .milliseconds(4))
        }
    }

    /// The picture loss indications the relay sent about `ssrc` so far.
    func pictureLossIndications(for ssrc: UInt32) -> Int {
        endpoint.receivedRTCP().filter { $0.isPictureLossIndication && $0.mediaSSRC == ssrc }.count
    }
}
