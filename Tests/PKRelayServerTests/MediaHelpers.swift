import PKRelayClient
import Protocol
import SecureTransport

/// Shared steps of the media tests.
enum MediaHelpers {
    /// Creates a transport, opens a local endpoint for it and connects it: with the endpoint's
    /// address, which it then proves with an authenticated receiver report (the relay sends to
    /// a given address only after that), or latching when `latch` is set. A `receiveOnly`
    /// transport only subscribes, so a room past `media.spreadRoomAfter` puts it on another shard.
    static func openEndpoint(_ client: ControlClient, profile: SRTPProfile, latch: Bool, receiveOnly: Bool = false) async throws -> MediaEndpoint {
        let created: CreateTransportResult = try await client.request(
            "createTransport", CreateTransportParams(srtpProfile: profile.rawValue, receiveOnly: receiveOnly ? true : nil))
        let endpoint = try MediaEndpoint(transport: created)
        try await client.call("connectTransport", endpoint.connectParams(latch: latch))
        if !latch { try endpoint.proveAddress() }
        return endpoint
    }

    /// Connects `transport` to a local port that a player will listen on (ffmpeg reading an SDP
    /// file, which sends the relay nothing): from that port, before the player takes it, one
    /// receiver report protected with the client key proves the address, as a client app does
    /// before it starts its player.
    static func connectForPlayer(_ client: ControlClient, transport: CreateTransportResult, port: Int) async throws {
        let endpoint = try MediaEndpoint(transport: transport, localPort: port)
        defer { endpoint.close() }
        try await client.call("connectTransport", endpoint.connectParams())
        try endpoint.proveAddress()
    }

    /// The video and audio tracks of a publisher using the synthetic packetizers.
    static func tracks(video: UInt32, audio: UInt32) -> [TrackDescription] {
        [
            TrackDescription(kind: .video, ssrc: video, payloadType: 96, codec: "VP8", clockRate: 90000),
            TrackDescription(kind: .audio, ssrc: audio, payloadType: 111, codec: "opus", clockRate: 48000, channels: 2),
        ]
    }

    /// Whether `sequenceNumbers` run on by exactly one each (with wrap-around).
    static func isContinuous(_ sequenceNumbers: [UInt16]) -> Bool {
        zip(sequenceNumbers, sequenceNumbers.dropFirst()).allSatisfy { $1 == $0 &+ 1 }
    }

    /// The first index where `sequenceNumbers` does not run on by one, for failure messages.
    static func firstGap(_ sequenceNumbers: [UInt16]) -> String {
        for (index, pair) in zip(sequenceNumbers, sequenceNumbers.dropFirst()).enumerated() where pair.1 != pair.0 &+ 1 {
            return "at \(index): \(pair.0) -> \(pair.1)"
        }
        return "none"
    }

    /// Whether timestamp `later` lies after `earlier` in RTP's wrapping arithmetic.
    static func isAfter(_ later: UInt32, _ earlier: UInt32) -> Bool {
        Int32(bitPattern: later &- earlier) > 0
    }
}
