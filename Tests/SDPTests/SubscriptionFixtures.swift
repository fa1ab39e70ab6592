import SDP

/// Outgoing tracks for the subscription tests.
enum SubscriptionFixtures {
    static let aliceAudio = OutgoingTrackDescription(
        mid: "a0", kind: .audio, codec: .opus(payloadType: 111), ssrc: 1001, cname: "relay-7f3a", streamID: "alice",
        trackID: "alice-mic")
    static let aliceVideo = OutgoingTrackDescription(
        mid: "v0", kind: .video, codec: .vp8(payloadType: 96), rtxPayloadType: 97, ssrc: 2001, rtxSSRC: 2002,
        cname: "relay-7f3a", streamID: "alice", trackID: "alice-cam")
    static let bobVideo = OutgoingTrackDescription(
        mid: "v1", kind: .video, codec: .vp8(payloadType: 96), rtxPayloadType: 97, ssrc: 3001, rtxSSRC: 3002,
        cname: "relay-7f3a", streamID: "bob", trackID: "bob-cam")
    static let carolVideo = OutgoingTrackDescription(
        mid: "v2", kind: .video, codec: .h264(payloadType: 102), rtxPayloadType: 103, ssrc: 4001, rtxSSRC: 4002,
        cname: "relay-7f3a", streamID: "carol", trackID: "carol-cam")
    static let bobAudio = OutgoingTrackDescription(
        mid: "a1", kind: .audio, codec: .opus(payloadType: 111), ssrc: 5001, cname: "relay-7f3a", streamID: "bob",
        trackID: "bob-mic")

    /// An answer in Chromium's shape to the offer of `aliceAudio` and `aliceVideo`.
    static let chromiumAnswer = """
        v=0
        o=- 2630480981749327640 2 IN IP4 127.0.0.1
        s=-
        t=0 0
        a=group:BUNDLE a0 v0
        a=msid-semantic: WMS
        m=audio 9 UDP/TLS/RTP/SAVPF 111
        c=IN IP4 0.0.0.0
        a=rtcp:9 IN IP4 0.0.0.0
        a=ice-ufrag:Kd5s
        a=ice-pwd:Wq1Zc8Nv4Tb7Lx2Rm6Hp9Fj3
        a=ice-options:trickle
        a=fingerprint:sha-256 68:F7:00:F5:B0:2B:3D:C6:66:F4:5B:DE:AA:2C:CA:ED:CD:2B:51:57:41:0E:4D:EE:4A:F2:B3:4F:43:0A:07:34
        a=setup:active
        a=mid:a0
        a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
        a=extmap:2 urn:ietf:params:rtp-hdrext:ssrc-audio-level
        a=recvonly
        a=rtcp-mux
        a=rtcp-rsize
        a=rtpmap:111 opus/48000/2
        a=fmtp:111 minptime=10;useinbandfec=1
        m=video 9 UDP/TLS/RTP/SAVPF 96 97
        c=IN IP4 0.0.0.0
        a=rtcp:9 IN IP4 0.0.0.0
        a=ice-ufrag:Kd5s
        a=ice-pwd:Wq1Zc8Nv4Tb7Lx2Rm6Hp9Fj3
        a=ice-options:trickle
        a=fingerprint:sha-256 68:F7:00:F5:B0:2B:3D:C6:66:F4:5B:DE:AA:2C:CA:ED:CD:2B:51:57:41:0E:4D:EE:4A:F2:B3:4F:43:0A:07:34
        a=setup:active
        a=mid:v0
        a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
        a=recvonly
        a=rtcp-mux
        a=rtcp-rsize
        a=rtpmap:96 VP8/90000
        a=rtcp-fb:96 ccm fir
        a=rtcp-fb:96 nack
        a=rtcp-fb:96 nack pli
        a=rtpmap:97 rtx/90000
        a=fmtp:97 apt=96
        """
}
