/// Offers captured in the shape current browsers and libraries write them, with the
/// identifiers, addresses and keys replaced by made-up ones.
enum SDPFixtures {
    /// A Chromium offer from `addTrack` of a camera and a microphone: audio and video bundled,
    /// sendrecv, with Chromium's full codec list (H.264 in six profiles and both packetization modes).
    static let chromiumOffer = """
        v=0
        o=- 4215775240449105457 2 IN IP4 127.0.0.1
        s=-
        t=0 0
        a=group:BUNDLE 0 1
        a=extmap-allow-mixed
        a=msid-semantic: WMS 5b1d4f0e-6c2a-4a8e-9d3b-7f61c2e0a9d4
        m=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126
        c=IN IP4 0.0.0.0
        a=rtcp:9 IN IP4 0.0.0.0
        a=ice-ufrag:Qm4x
        a=ice-pwd:vR3t9LkP2sWq8ZyB1nHc5DfG
        a=ice-options:trickle
        a=fingerprint:sha-256 A5:4D:CA:18:25:30:BB:1D:6D:13:2C:DE:D6:23:7B:2E:D9:1E:3F:72:1F:CB:19:71:17:44:94:D6:49:3C:9D:5C
        a=setup:actpass
        a=mid:0
        a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level
        a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
        a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
        a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid
        a=sendrecv
        a=msid:5b1d4f0e-6c2a-4a8e-9d3b-7f61c2e0a9d4 e2c7a1b4-3f58-4d69-8a0e-b71c95d36f28
        a=rtcp-mux
        a=rtcp-rsize
        a=rtpmap:111 opus/48000/2
        a=rtcp-fb:111 transport-cc
        a=fmtp:111 minptime=10;useinbandfec=1
        a=rtpmap:63 red/48000/2
        a=fmtp:63 111/111
        a=rtpmap:9 G722/8000
        a=rtpmap:0 PCMU/8000
        a=rtpmap:8 PCMA/8000
        a=rtpmap:13 CN/8000
        a=rtpmap:110 telephone-event/48000
        a=rtpmap:126 telephone-event/8000
        a=ssrc:2863412071 cname:Hx7bq2KoT9vLm4Zs
        a=ssrc:2863412071 msid:5b1d4f0e-6c2a-4a8e-9d3b-7f61c2e0a9d4 e2c7a1b4-3f58-4d69-8a0e-b71c95d36f28
        m=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103 104 105 106 107 108 109 127 125 39 40 45 46 98 99 100 101 112 113 116 117 118
        c=IN IP4 0.0.0.0
        a=rtcp:9 IN IP4 0.0.0.0
        a=ice-ufrag:Qm4x
        a=ice-pwd:vR3t9LkP2sWq8ZyB1nHc5DfG
        a=ice-options:trickle
        a=fingerprint:sha-256 A5:4D:CA:18:25:30:BB:1D:6D:13:2C:DE:D6:23:7B:2E:D9:1E:3F:72:1F:CB:19:71:17:44:94:D6:49:3C:9D:5C
        a=setup:actpass
        a=mid:1
        a=extmap:14 urn:ietf:params:rtp-hdrext:toffset
        a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
        a=extmap:13 urn:3gpp:video-orientation
        a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
        a=extmap:5 http://www.webrtc.org/experiments/rtp-hdrext/playout-delay
        a=extmap:6 http://www.webrtc.org/experiments/rtp-hdrext/video-content-type
        a=extmap:7 http://www.webrtc.org/experiments/rtp-hdrext/video-timing
        a=extmap:8 http://www.webrtc.org/experiments/rtp-hdrext/color-space
        a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid
        a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id
        a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id
        a=sendrecv
        a=msid:5b1d4f0e-6c2a-4a8e-9d3b-7f61c2e0a9d4 9f0a6d3c-1b27-4e85-a4c9-2d8e7f51b630
        a=rtcp-mux
        a=rtcp-rsize
        a=rtpmap:96 VP8/90000
        a=rtcp-fb:96 goog-remb
        a=rtcp-fb:96 transport-cc
        a=rtcp-fb:96 ccm fir
        a=rtcp-fb:96 nack
        a=rtcp-fb:96 nack pli
        a=rtpmap:97 rtx/90000
        a=fmtp:97 apt=96
        a=rtpmap:102 H264/90000
        a=rtcp-fb:102 goog-remb
        a=rtcp-fb:102 transport-cc
        a=rtcp-fb:102 ccm fir
        a=rtcp-fb:102 nack
        a=rtcp-fb:102 nack pli
        a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f
        a=rtpmap:103 rtx/90000
        a=fmtp:103 apt=102
        a=rtpmap:104 H264/90000
        a=rtcp-fb:104 goog-remb
        a=rtcp-fb:104 transport-cc
        a=rtcp-fb:104 ccm fir
        a=rtcp-fb:104 nack
        a=rtcp-fb:104 nack pli
        a=fmtp:104 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f
        a=rtpmap:105 rtx/90000
        a=fmtp:105 apt=104
        a=rtpmap:106 H264/90000
        a=rtcp-fb:106 goog-remb
        a=rtcp-fb:106 transport-cc
        a=rtcp-fb:106 ccm fir
        a=rtcp-fb:106 nack
        a=rtcp-fb:106 nack pli
        a=fmtp:106 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f
        a=rtpmap:107 rtx/90000
        a=fmtp:107 apt=106
        a=rtpmap:108 H264/90000
        a=rtcp-fb:108 goog-remb
        a=rtcp-fb:108 transport-cc
        a=rtcp-fb:108 ccm fir
        a=rtcp-fb:108 nack
        a=rtcp-fb:108 nack pli
        a=fmtp:108 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f
        a=rtpmap:109 rtx/90000
        a=fmtp:109 apt=108
        a=rtpmap:127 H264/90000
        a=rtcp-fb:127 goog-remb
        a=rtcp-fb:127 transport-cc
        a=rtcp-fb:127 ccm fir
        a=rtcp-fb:127 nack
        a=rtcp-fb:127 nack pli
        a=fmtp:127 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f
        a=rtpmap:125 rtx/90000
        a=fmtp:125 apt=127
        a=rtpmap:39 H264/90000
        a=rtcp-fb:39 goog-remb
        a=rtcp-fb:39 transport-cc
        a=rtcp-fb:39 ccm fir
        a=rtcp-fb:39 nack
        a=rtcp-fb:39 nack pli
        a=fmtp:39 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=4d001f
        a=rtpmap:40 rtx/90000
        a=fmtp:40 apt=39
        a=rtpmap:45 AV1/90000
        a=rtcp-fb:45 goog-remb
        a=rtcp-fb:45 transport-cc
        a=rtcp-fb:45 ccm fir
        a=rtcp-fb:45 nack
        a=rtcp-fb:45 nack pli
        a=fmtp:45 level-idx=5;profile=0;tier=0
        a=rtpmap:46 rtx/90000
        a=fmtp:46 apt=45
        a=rtpmap:98 VP9/90000
        a=rtcp-fb:98 goog-remb
        a=rtcp-fb:98 transport-cc
        a=rtcp-fb:98 ccm fir
        a=rtcp-fb:98 nack
        a=rtcp-fb:98 nack pli
        a=fmtp:98 profile-id=0
        a=rtpmap:99 rtx/90000
        a=fmtp:99 apt=98
        a=rtpmap:100 VP9/90000
        a=rtcp-fb:100 goog-remb
        a=rtcp-fb:100 transport-cc
        a=rtcp-fb:100 ccm fir
        a=rtcp-fb:100 nack
        a=rtcp-fb:100 nack pli
        a=fmtp:100 profile-id=2
        a=rtpmap:101 rtx/90000
        a=fmtp:101 apt=100
        a=rtpmap:112 H264/90000
        a=rtcp-fb:112 goog-remb
        a=rtcp-fb:112 transport-cc
        a=rtcp-fb:112 ccm fir
        a=rtcp-fb:112 nack
        a=rtcp-fb:112 nack pli
        a=fmtp:112 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=64001f
        a=rtpmap:113 rtx/90000
        a=fmtp:113 apt=112
        a=rtpmap:116 red/90000
        a=rtpmap:117 rtx/90000
        a=fmtp:117 apt=116
        a=rtpmap:118 ulpfec/90000
        a=ssrc-group:FID 1518396263 3067519340
        a=ssrc:1518396263 cname:Hx7bq2KoT9vLm4Zs
        a=ssrc:1518396263 msid:5b1d4f0e-6c2a-4a8e-9d3b-7f61c2e0a9d4 9f0a6d3c-1b27-4e85-a4c9-2d8e7f51b630
        a=ssrc:3067519340 cname:Hx7bq2KoT9vLm4Zs
        a=ssrc:3067519340 msid:5b1d4f0e-6c2a-4a8e-9d3b-7f61c2e0a9d4 9f0a6d3c-1b27-4e85-a4c9-2d8e7f51b630
        """

    /// A Chromium publish offer with three rid simulcast layers (`sendEncodings` h, m, l) and
    /// sendonly transceivers; Chromium writes no a=ssrc lines for rid simulcast.
    static let chromiumSimulcastOffer = """
        v=0
        o=- 7719504436817220138 2 IN IP4 127.0.0.1
        s=-
        t=0 0
        a=group:BUNDLE 0 1
        a=extmap-allow-mixed
        a=msid-semantic: WMS
        m=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126
        c=IN IP4 0.0.0.0
        a=rtcp:9 IN IP4 0.0.0.0
        a=ice-ufrag:hT8e
        a=ice-pwd:Jw2Lx9Qa4RcN7bVk1Ys6PmZd
        a=ice-options:trickle
        a=fingerprint:sha-256 34:60:BE:31:20:1E:69:FE:DA:A0:EE:E8:B9:99:7F:5C:7C:29:99:FD:AF:E5:93:25:3C:D6:54:AF:4D:FA:D7:14
        a=setup:actpass
        a=mid:0
        a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level
        a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
        a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
        a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid
        a=sendonly
        a=msid:c41e7b90-52fa-4d3e-b8a6-09d7e2f15c83 6a2f9e1d-8b43-4c70-95de-3e1b7a0c4f52
        a=rtcp-mux
        a=rtcp-rsize
        a=rtpmap:111 opus/48000/2
        a=rtcp-fb:111 transport-cc
        a=fmtp:111 minptime=10;useinbandfec=1
        a=rtpmap:63 red/48000/2
        a=fmtp:63 111/111
        a=rtpmap:9 G722/8000
        a=rtpmap:0 PCMU/8000
        a=rtpmap:8 PCMA/8000
        a=rtpmap:13 CN/8000
        a=rtpmap:110 telephone-event/48000
        a=rtpmap:126 telephone-event/8000
        a=ssrc:1096503512 cname:pZ3nW8rQk1Lx5VtY
        a=ssrc:1096503512 msid:c41e7b90-52fa-4d3e-b8a6-09d7e2f15c83 6a2f9e1d-8b43-4c70-95de-3e1b7a0c4f52
        m=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103 104 105 106 107 108 109 127 125 39 40 45 46 98 99 100 101 112 113 116 117 118
        c=IN IP4 0.0.0.0
        a=rtcp:9 IN IP4 0.0.0.0
        a=ice-ufrag:hT8e
        a=ice-pwd:Jw2Lx9Qa4RcN7bVk1Ys6PmZd
        a=ice-options:trickle
        a=fingerprint:sha-256 34:60:BE:31:20:1E:69:FE:DA:A0:EE:E8:B9:99:7F:5C:7C:29:99:FD:AF:E5:93:25:3C:D6:54:AF:4D:FA:D7:14
        a=setup:actpass
        a=mid:1
        a=extmap:14 urn:ietf:params:rtp-hdrext:toffset
        a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
        a=extmap:13 urn:3gpp:video-orientation
        a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
        a=extmap:5 http://www.webrtc.org/experiments/rtp-hdrext/playout-delay
        a=extmap:6 http://www.webrtc.org/experiments/rtp-hdrext/video-content-type
        a=extmap:7 http://www.webrtc.org/experiments/rtp-hdrext/video-timing
        a=extmap:8 http://www.webrtc.org/experiments/rtp-hdrext/color-space
        a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid
        a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id
        a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id
        a=sendonly
        a=msid:c41e7b90-52fa-4d3e-b8a6-09d7e2f15c83 b87d3c10-4e9a-4f21-a6b5-5c02e9f8d71a
        a=rtcp-mux
        a=rtcp-rsize
        a=rtpmap:96 VP8/90000
        a=rtcp-fb:96 goog-remb
        a=rtcp-fb:96 transport-cc
        a=rtcp-fb:96 ccm fir
        a=rtcp-fb:96 nack
        a=rtcp-fb:96 nack pli
        a=rtpmap:97 rtx/90000
        a=fmtp:97 apt=96
        a=rtpmap:102 H264/90000
        a=rtcp-fb:102 goog-remb
        a=rtcp-fb:102 transport-cc
        a=rtcp-fb:102 ccm fir
        a=rtcp-fb:102 nack
        a=rtcp-fb:102 nack pli
        a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f
        a=rtpmap:103 rtx/90000
        a=fmtp:103 apt=102
        a=rtpmap:104 H264/90000
        a=rtcp-fb:104 goog-remb
        a=rtcp-fb:104 transport-cc
        a=rtcp-fb:104 ccm fir
        a=rtcp-fb:104 nack
        a=rtcp-fb:104 nack pli
        a=fmtp:104 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f
        a=rtpmap:105 rtx/90000
        a=fmtp:105 apt=104
        a=rtpmap:106 H264/90000
        a=rtcp-fb:106 goog-remb
        a=rtcp-fb:106 transport-cc
        a=rtcp-fb:106 ccm fir
        a=rtcp-fb:106 nack
        a=rtcp-fb:106 nack pli
        a=fmtp:106 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f
        a=rtpmap:107 rtx/90000
        a=fmtp:107 apt=106
        a=rtpmap:108 H264/90000
        a=rtcp-fb:108 goog-remb
        a=rtcp-fb:108 transport-cc
        a=rtcp-fb:108 ccm fir
        a=rtcp-fb:108 nack
        a=rtcp-fb:108 nack pli
        a=fmtp:108 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f
        a=rtpmap:109 rtx/90000
        a=fmtp:109 apt=108
        a=rtpmap:127 H264/90000
        a=rtcp-fb:127 goog-remb
        a=rtcp-fb:127 transport-cc
        a=rtcp-fb:127 ccm fir
        a=rtcp-fb:127 nack
        a=rtcp-fb:127 nack pli
        a=fmtp:127 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f
        a=rtpmap:125 rtx/90000
        a=fmtp:125 apt=127
        a=rtpmap:39 H264/90000
        a=rtcp-fb:39 goog-remb
        a=rtcp-fb:39 transport-cc
        a=rtcp-fb:39 ccm fir
        a=rtcp-fb:39 nack
        a=rtcp-fb:39 nack pli
        a=fmtp:39 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=4d001f
        a=rtpmap:40 rtx/90000
        a=fmtp:40 apt=39
        a=rtpmap:45 AV1/90000
        a=rtcp-fb:45 goog-remb
        a=rtcp-fb:45 transport-cc
        a=rtcp-fb:45 ccm fir
        a=rtcp-fb:45 nack
        a=rtcp-fb:45 nack pli
        a=fmtp:45 level-idx=5;profile=0;tier=0
        a=rtpmap:46 rtx/90000
        a=fmtp:46 apt=45
        a=rtpmap:98 VP9/90000
        a=rtcp-fb:98 goog-remb
        a=rtcp-fb:98 transport-cc
        a=rtcp-fb:98 ccm fir
        a=rtcp-fb:98 nack
        a=rtcp-fb:98 nack pli
        a=fmtp:98 profile-id=0
        a=rtpmap:99 rtx/90000
        a=fmtp:99 apt=98
        a=rtpmap:100 VP9/90000
        a=rtcp-fb:100 goog-remb
        a=rtcp-fb:100 transport-cc
        a=rtcp-fb:100 ccm fir
        a=rtcp-fb:100 nack
        a=rtcp-fb:100 nack pli
        a=fmtp:100 profile-id=2
        a=rtpmap:101 rtx/90000
        a=fmtp:101 apt=100
        a=rtpmap:112 H264/90000
        a=rtcp-fb:112 goog-remb
        a=rtcp-fb:112 transport-cc
        a=rtcp-fb:112 ccm fir
        a=rtcp-fb:112 nack
        a=rtcp-fb:112 nack pli
        a=fmtp:112 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=64001f
        a=rtpmap:113 rtx/90000
        a=fmtp:113 apt=112
        a=rtpmap:116 red/90000
        a=rtpmap:117 rtx/90000
        a=fmtp:117 apt=116
        a=rtpmap:118 ulpfec/90000
        a=rid:h send
        a=rid:m send
        a=rid:l send
        a=simulcast:send h;m;l
        """

    /// A Firefox offer: fingerprint at session level, fmtp before rtpmap, extmaps with a
    /// direction, and the retransmission SSRC announced with an FID group.
    static let firefoxOffer = """
        v=0
        o=mozilla...THIS_IS_SDPARTA-133.0 3062468907214436735 0 IN IP4 0.0.0.0
        s=-
        t=0 0
        a=fingerprint:sha-256 27:A0:AE:B3:FE:E9:23:2F:8A:F2:21:1F:9E:E4:91:C5:B1:0B:EC:B5:56:3B:FC:1E:6F:93:42:7E:CB:C8:FE:29
        a=group:BUNDLE 0 1
        a=ice-options:trickle
        a=msid-semantic:WMS *
        m=audio 9 UDP/TLS/RTP/SAVPF 109 9 0 8 101
        c=IN IP4 0.0.0.0
        a=sendrecv
        a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level
        a=extmap:2/recvonly urn:ietf:params:rtp-hdrext:csrc-audio-level
        a=extmap:3 urn:ietf:params:rtp-hdrext:sdes:mid
        a=fmtp:109 maxplaybackrate=48000;stereo=1;useinbandfec=1
        a=fmtp:101 0-15
        a=ice-pwd:b0d94a7e2c6f1835e9a04d7b3c21f6e8
        a=ice-ufrag:5c8e1f3a
        a=mid:0
        a=msid:{8d2f6a41-93c7-4b1e-a05d-7e3f9c2b6d18} {1e7c3a95-6d20-4f8b-b3a4-c95e0f27d613}
        a=rtcp-mux
        a=rtpmap:109 opus/48000/2
        a=rtpmap:9 G722/8000/1
        a=rtpmap:0 PCMU/8000
        a=rtpmap:8 PCMA/8000
        a=rtpmap:101 telephone-event/8000
        a=setup:actpass
        a=ssrc:3347196504 cname:{3b9e5f70-a1c4-4d26-9f83-7c0e2d5a64b1}
        m=video 9 UDP/TLS/RTP/SAVPF 120 124 121 125 126 127 97 98 123 122 119
        c=IN IP4 0.0.0.0
        a=sendrecv
        a=extmap:3 urn:ietf:params:rtp-hdrext:sdes:mid
        a=extmap:4 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
        a=extmap:5 urn:ietf:params:rtp-hdrext:toffset
        a=extmap:6/recvonly http://www.webrtc.org/experiments/rtp-hdrext/playout-delay
        a=extmap:7 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
        a=fmtp:126 profile-level-id=42e01f;level-asymmetry-allowed=1;packetization-mode=1
        a=fmtp:97 profile-level-id=42e01f;level-asymmetry-allowed=1
        a=fmtp:120 max-fs=12288;max-fr=60
        a=fmtp:124 apt=120
        a=fmtp:121 max-fs=12288;max-fr=60
        a=fmtp:125 apt=121
        a=fmtp:127 apt=126
        a=fmtp:98 apt=97
        a=fmtp:119 apt=122
        a=ice-pwd:b0d94a7e2c6f1835e9a04d7b3c21f6e8
        a=ice-ufrag:5c8e1f3a
        a=mid:1
        a=msid:{8d2f6a41-93c7-4b1e-a05d-7e3f9c2b6d18} {f4a0b6d2-2c91-47e3-8e5f-16d7a3b9c042}
        a=rtcp-fb:120 nack
        a=rtcp-fb:120 nack pli
        a=rtcp-fb:120 ccm fir
        a=rtcp-fb:120 goog-remb
        a=rtcp-fb:120 transport-cc
        a=rtcp-fb:121 nack
        a=rtcp-fb:121 nack pli
        a=rtcp-fb:121 ccm fir
        a=rtcp-fb:121 goog-remb
        a=rtcp-fb:121 transport-cc
        a=rtcp-fb:126 nack
        a=rtcp-fb:126 nack pli
        a=rtcp-fb:126 ccm fir
        a=rtcp-fb:126 goog-remb
        a=rtcp-fb:126 transport-cc
        a=rtcp-fb:97 nack
        a=rtcp-fb:97 nack pli
        a=rtcp-fb:97 ccm fir
        a=rtcp-fb:97 goog-remb
        a=rtcp-fb:97 transport-cc
        a=rtcp-fb:123 nack
        a=rtcp-fb:123 nack pli
        a=rtcp-fb:123 ccm fir
        a=rtcp-fb:123 goog-remb
        a=rtcp-fb:123 transport-cc
        a=rtcp-fb:122 nack
        a=rtcp-fb:122 nack pli
        a=rtcp-fb:122 ccm fir
        a=rtcp-fb:122 goog-remb
        a=rtcp-fb:122 transport-cc
        a=rtcp-mux
        a=rtcp-rsize
        a=rtpmap:120 VP8/90000
        a=rtpmap:124 rtx/90000
        a=rtpmap:121 VP9/90000
        a=rtpmap:125 rtx/90000
        a=rtpmap:126 H264/90000
        a=rtpmap:127 rtx/90000
        a=rtpmap:97 H264/90000
        a=rtpmap:98 rtx/90000
        a=rtpmap:123 ulpfec/90000
        a=rtpmap:122 red/90000
        a=rtpmap:119 rtx/90000
        a=setup:actpass
        a=ssrc:2469785347 cname:{3b9e5f70-a1c4-4d26-9f83-7c0e2d5a64b1}
        a=ssrc:1820453298 cname:{3b9e5f70-a1c4-4d26-9f83-7c0e2d5a64b1}
        a=ssrc-group:FID 2469785347 1820453298
        """

    /// An aiortc 1.x offer: candidates gathered before the offer, three fingerprints, the
    /// transport attributes after the codecs.
    static let aiortcOffer = """
        v=0
        o=- 3942218716 3942218716 IN IP4 0.0.0.0
        s=-
        t=0 0
        a=group:BUNDLE 0 1
        a=msid-semantic:WMS *
        m=audio 47812 UDP/TLS/RTP/SAVPF 96 0 8
        c=IN IP4 192.168.1.23
        a=sendrecv
        a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
        a=extmap:2 urn:ietf:params:rtp-hdrext:ssrc-audio-level
        a=mid:0
        a=msid:7f3c1a9e-4b2d-48e6-9a05-c1d8e7b36f24 2d9e4c7a-0b13-4f6e-8d52-a7c3f1e90b68
        a=rtcp:9 IN IP4 0.0.0.0
        a=rtcp-mux
        a=ssrc:1912740386 cname:0a9f5e2c-8d41-4b73-a6e0-1c3d9f7b2e58
        a=rtpmap:96 opus/48000/2
        a=rtpmap:0 PCMU/8000
        a=rtpmap:8 PCMA/8000
        a=candidate:4a6f1e0d2c9b8a7f3e5d1c0b9a8f7e6d 1 udp 2130706431 192.168.1.23 47812 typ host
        a=candidate:9c3e7a1f5b2d8e4a6c0f1b3d5e7a9c2e 1 udp 1694498815 198.51.100.74 47812 typ srflx raddr 192.168.1.23 rport 47812
        a=end-of-candidates
        a=ice-ufrag:Xb2N
        a=ice-pwd:q5Lh8Fz3Tw1Kc9Rm7Vp4Yd6G
        a=fingerprint:sha-256 68:F7:00:F5:B0:2B:3D:C6:66:F4:5B:DE:AA:2C:CA:ED:CD:2B:51:57:41:0E:4D:EE:4A:F2:B3:4F:43:0A:07:34
        a=fingerprint:sha-384 55:E5:CD:8E:46:DC:8E:D4:B7:C2:76:4D:2A:5A:4D:76:77:06:F8:5D:86:90:02:4A:D6:BD:A3:40:1B:E9:C8:CB:CC:C9:35:F6:CD:1F:61:22:\
        6A:E1:53:38:AE:1A:34:00
        a=fingerprint:sha-512 4D:33:BA:0D:24:6A:C0:4C:81:B1:BA:F2:3E:3B:F9:EE:F5:F7:9F:2B:49:34:AF:87:F5:52:0B:69:B9:4B:0D:98:2E:85:BB:55:B6:72:A8:72:\
        63:7A:CD:74:66:FC:B6:0E:0E:8F:F1:84:63:B0:E4:B2:BA:29:70:34:74:F0:64:AC
        a=setup:actpass
        m=video 47812 UDP/TLS/RTP/SAVPF 97 98 99 100 101 102
        c=IN IP4 192.168.1.23
        a=sendrecv
        a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
        a=extmap:3 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
        a=mid:1
        a=msid:7f3c1a9e-4b2d-48e6-9a05-c1d8e7b36f24 c6a1f0d3-9e27-4b84-b5c9-3f7e2d1a8b40
        a=rtcp:9 IN IP4 0.0.0.0
        a=rtcp-mux
        a=ssrc-group:FID 3158920417 2075183669
        a=ssrc:3158920417 cname:0a9f5e2c-8d41-4b73-a6e0-1c3d9f7b2e58
        a=ssrc:2075183669 cname:0a9f5e2c-8d41-4b73-a6e0-1c3d9f7b2e58
        a=rtpmap:97 VP8/90000
        a=rtcp-fb:97 nack
        a=rtcp-fb:97 nack pli
        a=rtcp-fb:97 goog-remb
        a=rtpmap:98 rtx/90000
        a=fmtp:98 apt=97
        a=rtpmap:99 H264/90000
        a=rtcp-fb:99 nack
        a=rtcp-fb:99 nack pli
        a=rtcp-fb:99 goog-remb
        a=fmtp:99 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f
        a=rtpmap:100 rtx/90000
        a=fmtp:100 apt=99
        a=rtpmap:101 H264/90000
        a=rtcp-fb:101 nack
        a=rtcp-fb:101 nack pli
        a=rtcp-fb:101 goog-remb
        a=fmtp:101 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f
        a=rtpmap:102 rtx/90000
        a=fmtp:102 apt=101
        a=candidate:4a6f1e0d2c9b8a7f3e5d1c0b9a8f7e6d 1 udp 2130706431 192.168.1.23 47812 typ host
        a=candidate:9c3e7a1f5b2d8e4a6c0f1b3d5e7a9c2e 1 udp 1694498815 198.51.100.74 47812 typ srflx raddr 192.168.1.23 rport 47812
        a=end-of-candidates
        a=ice-ufrag:Xb2N
        a=ice-pwd:q5Lh8Fz3Tw1Kc9Rm7Vp4Yd6G
        a=fingerprint:sha-256 68:F7:00:F5:B0:2B:3D:C6:66:F4:5B:DE:AA:2C:CA:ED:CD:2B:51:57:41:0E:4D:EE:4A:F2:B3:4F:43:0A:07:34
        a=fingerprint:sha-384 55:E5:CD:8E:46:DC:8E:D4:B7:C2:76:4D:2A:5A:4D:76:77:06:F8:5D:86:90:02:4A:D6:BD:A3:40:1B:E9:C8:CB:CC:C9:35:F6:CD:1F:61:22:\
        6A:E1:53:38:AE:1A:34:00
        a=fingerprint:sha-512 4D:33:BA:0D:24:6A:C0:4C:81:B1:BA:F2:3E:3B:F9:EE:F5:F7:9F:2B:49:34:AF:87:F5:52:0B:69:B9:4B:0D:98:2E:85:BB:55:B6:72:A8:72:\
        63:7A:CD:74:66:FC:B6:0E:0E:8F:F1:84:63:B0:E4:B2:BA:29:70:34:74:F0:64:AC
        a=setup:actpass
        """
}
