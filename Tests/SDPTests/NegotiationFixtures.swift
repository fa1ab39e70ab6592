import SDP

/// The relay side and edits of the offer fixtures shared by the negotiation tests.
enum NegotiationFixtures {
    /// The relay's transport for the tests.
    static let relay = RelayTransportDescription(
        iceUsernameFragment: "rl7Q", icePassword: "Vb8Tn2Kx5Rw9Lm3Qz6Hd1Pf4",
        fingerprint: SDPFingerprint(
            algorithm: "sha-256",
            value: "47:DE:63:6C:0E:80:6C:95:7B:A6:84:D6:43:1F:B5:EA:D7:42:4D:09:E1:5D:02:4C:58:48:F2:3D:1F:A6:F7:36"),
        candidateAddress: "203.0.113.10", candidatePort: 40_012, sessionID: 6_803_327_717_530_214_902, sessionVersion: 1)

    /// `text` with the lines starting with any of `prefixes` removed and the lines equal to
    /// a key of `replacements` replaced by the lines of its value (none to delete).
    static func edited(_ text: String, removing prefixes: [String] = [], replacing replacements: [String: [String]] = [:]) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            if prefixes.contains(where: { line.hasPrefix($0) }) { return [] }
            return replacements[String(line)] ?? [String(line)]
        }.joined(separator: "\n")
    }

    /// A short offer in Chromium's shape: an audio section (opus 111) and a video section
    /// with `videoCodecLines` after `a=rtcp-rsize`, listing `videoPayloadTypes`.
    static func offer(videoPayloadTypes: String, videoCodecLines: [String], videoExtra: [String] = []) -> String {
        let transport = [
            "a=ice-ufrag:Tq3v", "a=ice-pwd:Hn6Rk1Wx8Zp4Lb9Cs2Fm7Dy5", "a=ice-options:trickle",
            "a=fingerprint:sha-256 A5:4D:CA:18:25:30:BB:1D:6D:13:2C:DE:D6:23:7B:2E:D9:1E:3F:72:1F:CB:19:71:17:44:94:D6:49:3C:9D:5C",
            "a=setup:actpass",
        ]
        let lines =
            [
                "v=0", "o=- 1148906316263491205 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0 1", "a=msid-semantic: WMS",
                "m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0",
            ] + transport + [
                "a=mid:0", "a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level", "a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid",
                "a=sendonly", "a=msid:- 3c9a", "a=rtcp-mux", "a=rtpmap:111 opus/48000/2", "a=fmtp:111 minptime=10;useinbandfec=1",
                "m=video 9 UDP/TLS/RTP/SAVPF \(videoPayloadTypes)", "c=IN IP4 0.0.0.0",
            ] + transport + [
                "a=mid:1", "a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid",
                "a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id",
                "a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id",
                "a=sendonly", "a=msid:- 7e21", "a=rtcp-mux", "a=rtcp-rsize",
            ] + videoCodecLines + videoExtra
        return lines.joined(separator: "\n")
    }
}
