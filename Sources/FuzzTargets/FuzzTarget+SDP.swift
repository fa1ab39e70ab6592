import ICE
import SDP
import SecureTransport

extension FuzzTarget {
    /// The relay's side of the negotiations: the same capabilities as the relay's own.
    static let sdpNegotiator = RelayNegotiator(capabilities: RelayCapabilities())

    /// The relay's transport as a WebRTC publish answer and subscription offer describe it.
    static let sdpRelay = RelayTransportDescription(
        iceUsernameFragment: "rl7Q", icePassword: "Vb8Tn2Kx5Rw9Lm3Qz6Hd1Pf4",
        fingerprint: SDPFingerprint(
            algorithm: "sha-256",
            value: "47:DE:63:6C:0E:80:6C:95:7B:A6:84:D6:43:1F:B5:EA:D7:42:4D:09:E1:5D:02:4C:58:48:F2:3D:1F:A6:F7:36"),
        candidateAddress: "203.0.113.10", candidatePort: 40_012, sessionID: 6_803_327_717_530_214_902, sessionVersion: 1)

    /// A subscription offer with an audio and a video track (VP8 with rtx), which the input may
    /// answer.
    static let sdpSubscriptionOffer: SubscriptionOffer = {
        let audio = OutgoingTrackDescription(
            mid: "a0", kind: .audio, codec: .opus(payloadType: 111), ssrc: 1001, cname: "relay-7f3a", streamID: "alice",
            trackID: "alice-mic")
        let video = OutgoingTrackDescription(
            mid: "v0", kind: .video, codec: .vp8(payloadType: 96), rtxPayloadType: 97, ssrc: 2001, rtxSSRC: 2002,
            cname: "relay-7f3a", streamID: "alice", trackID: "alice-cam")
        do {
            return try sdpNegotiator.offer(forSubscription: [audio, video], relay: sdpRelay, version: 2)
        } catch {
            preconditionFailure("the fixed subscription offer cannot be made: \(error)")
        }
    }()

    /// The input is SDP text from a client. Whatever parses must write text that parses and writes
    /// the same again (the writer groups `fmtp` and `rtcp-fb` lines by payload type, so the first
    /// description read and the one read back may list them in another order). The text is then negotiated as a publish offer
    /// and read as the answer to a subscription offer, as the relay does with `transportOffer`
    /// answers and WebRTC publishes; an answer the relay writes must parse back to itself, and
    /// the client's transport parameters are turned into ICE credentials and DTLS fingerprints.
    static func runSDP(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let description = try? SessionDescription(parsing: text) {
            let written = description.serialized()
            guard let reread = try? SessionDescription(parsing: written) else { preconditionFailure("written SDP does not parse:\n\(written)") }
            precondition(reread.serialized() == written, "writing SDP is not stable:\n\(written)")
        }
        if let answer = try? sdpNegotiator.answer(toPublishOffer: text, relay: sdpRelay) {
            precondition((try? SessionDescription(parsing: answer.sdp)) == answer.sessionDescription, "the publish answer does not parse back:\n\(answer.sdp)")
            adopt(answer.negotiated.clientTransport)
        }
        if let answer = try? sdpNegotiator.parseAnswer(text, toSubscriptionOffer: sdpSubscriptionOffer), let client = answer.clientTransport {
            adopt(client)
        }
    }

    /// What the relay makes of a client's transport: ICE credentials and DTLS fingerprints.
    private static func adopt(_ client: ClientTransportParameters) {
        _ = ICECredentials(ufrag: client.iceUsernameFragment, password: client.icePassword).isValid
        for fingerprint in client.fingerprints {
            _ = fingerprint.bytes
            if let parsed = DTLSFingerprint(sdpValue: "\(fingerprint.algorithm) \(fingerprint.value)") {
                precondition(DTLSFingerprint(sdpValue: parsed.sdpValue) == parsed, "a DTLS fingerprint does not round-trip")
            }
        }
    }
}
