import SDP
import Testing

@Suite("Publish: the relay answers")
struct PublishNegotiationTests {
    let negotiator = RelayNegotiator()
    let relay = NegotiationFixtures.relay

    @Test("codec, rtx, feedback, extension ids, SSRCs and rids per section", arguments: PublishExpectation.all)
    func negotiated(_ expectation: PublishExpectation) throws {
        let result = try negotiator.answer(toPublishOffer: expectation.offer, relay: relay)
        #expect(result.negotiated.sections == expectation.sections)
        #expect(result.negotiated.rejectedSections.isEmpty)
        #expect(result.negotiated.clientTransport.iceUsernameFragment == expectation.clientUsernameFragment)
        #expect(result.negotiated.clientTransport.fingerprints.count == expectation.clientFingerprintCount)
        #expect(result.negotiated.clientTransport.setup == .actpass)

        let answer = try SessionDescription(parsing: result.sdp)
        #expect(answer == result.sessionDescription)
        #expect(answer.isICELite)
        #expect(answer.allowsMixedExtensionForms == expectation.allowsMixedExtensionForms)
        #expect(answer.groups == [.bundle(expectation.sections.map(\.mid))])
        for (section, expected) in zip(answer.media, expectation.sections) {
            #expect(section.mid == expected.mid)
            #expect(section.port == relay.candidatePort)
            #expect(section.direction == .recvonly)
            #expect(section.transport.setup == .passive)
            #expect(section.transport.fingerprints == [relay.fingerprint])
            #expect(section.candidates == [relay.candidate])
            #expect(section.isRTCPMultiplexed)
            #expect(section.isReducedSizeRTCP == expected.isReducedSizeRTCP)
            #expect(section.payloadTypes == [expected.codec.payloadType] + (expected.rtxPayloadType.map { [$0] } ?? []))
            #expect(section.feedback.map(\.feedbackValue) == expected.feedback)
            #expect(section.feedback.allSatisfy { $0.payloadType == expected.codec.payloadType })
            #expect(section.msids.isEmpty && section.ssrcAttributes.isEmpty)
            let uris = Set(section.extensionMaps.map(\.uri))
            #expect(uris.isSubset(of: Set(RelayCapabilities.standard.headerExtensionURIs)))
            #expect(
                NegotiatedHeaderExtensions(
                    mid: section.extensionMap(uri: HeaderExtensionURI.mid)?.id,
                    rtpStreamID: section.extensionMap(uri: HeaderExtensionURI.rtpStreamID)?.id,
                    repairedRTPStreamID: section.extensionMap(uri: HeaderExtensionURI.repairedRTPStreamID)?.id,
                    audioLevel: section.extensionMap(uri: HeaderExtensionURI.audioLevel)?.id,
                    transportWideSequenceNumber: section.extensionMap(uri: HeaderExtensionURI.transportWideSequenceNumber)?.id) == expected.headerExtensions)
        }
    }

    @Test("the whole answer to a Chromium simulcast offer")
    func simulcastAnswerText() throws {
        let sdp = try negotiator.answer(toPublishOffer: SDPFixtures.chromiumSimulcastOffer, relay: relay).sdp
        let transport = """
            a=ice-ufrag:rl7Q\r
            a=ice-pwd:Vb8Tn2Kx5Rw9Lm3Qz6Hd1Pf4\r
            a=fingerprint:sha-256 47:DE:63:6C:0E:80:6C:95:7B:A6:84:D6:43:1F:B5:EA:D7:42:4D:09:E1:5D:02:4C:58:48:F2:3D:1F:A6:F7:36\r
            a=setup:passive\r
            a=candidate:1 1 udp 2130706431 203.0.113.10 40012 typ host\r
            a=end-of-candidates\r
            a=rtcp-mux\r
            a=rtcp-rsize\r
            """
        #expect(
            sdp == """
                v=0\r
                o=- 6803327717530214902 1 IN IP4 0.0.0.0\r
                s=-\r
                t=0 0\r
                a=ice-lite\r
                a=group:BUNDLE 0 1\r
                a=extmap-allow-mixed\r
                m=audio 40012 UDP/TLS/RTP/SAVPF 111\r
                c=IN IP4 203.0.113.10\r
                a=mid:0\r
                a=recvonly\r
                \(transport)
                a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level\r
                a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01\r
                a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid\r
                a=rtpmap:111 opus/48000/2\r
                a=rtcp-fb:111 transport-cc\r
                a=fmtp:111 minptime=10;useinbandfec=1\r
                m=video 40012 UDP/TLS/RTP/SAVPF 96 97\r
                c=IN IP4 203.0.113.10\r
                a=mid:1\r
                a=recvonly\r
                \(transport)
                a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01\r
                a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid\r
                a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id\r
                a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id\r
                a=rtpmap:96 VP8/90000\r
                a=rtcp-fb:96 transport-cc\r
                a=rtcp-fb:96 ccm fir\r
                a=rtcp-fb:96 nack\r
                a=rtcp-fb:96 nack pli\r
                a=rtpmap:97 rtx/90000\r
                a=fmtp:97 apt=96\r
                a=rid:h recv\r
                a=rid:m recv\r
                a=rid:l recv\r
                a=simulcast:recv h;m;l\r

                """)
    }

    @Test(
        "H.264: packetization-mode 1 only, constrained baseline 42001f/42e01f preferred",
        arguments: [
            // (offer name, offered H.264 lines, expected payload type, expected rtx)
            ("Chromium full list", nil, 102, 103),
            (
                "only 4d001f and 42e01f mode 0",
                [
                    "a=rtpmap:108 H264/90000", "a=fmtp:108 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f",
                    "a=rtpmap:127 H264/90000", "a=fmtp:127 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f",
                    "a=rtpmap:125 rtx/90000", "a=fmtp:125 apt=127",
                ], 127, 125
            ),
            (
                "high first, 42e01f second",
                [
                    "a=rtpmap:112 H264/90000", "a=fmtp:112 packetization-mode=1;profile-level-id=64001f",
                    "a=rtpmap:106 H264/90000", "a=fmtp:106 packetization-mode=1;profile-level-id=42E01F",
                ], 106, nil
            ),
        ] as [(String, [String]?, Int, Int?)])
    func h264Choice(name: String, lines: [String]?, payloadType: Int, rtx: Int?) throws {
        let h264Only = RelayNegotiator(capabilities: RelayCapabilities(codecs: [.opus, .h264]))
        let offer =
            lines.map { lines in
                NegotiationFixtures.offer(
                    videoPayloadTypes: lines.filter { $0.hasPrefix("a=rtpmap:") }.map { String($0.dropFirst(9).prefix { $0 != " " }) }
                        .joined(separator: " "),
                    videoCodecLines: lines)
            } ?? SDPFixtures.chromiumOffer
        let video = try #require(try h264Only.answer(toPublishOffer: offer, relay: relay).negotiated.section(mid: "1"))
        #expect(video.codec.name == "H264")
        #expect(Int(video.codec.payloadType) == payloadType)
        #expect(video.codec.parameter("packetization-mode") == "1")
        #expect(video.rtxPayloadType.map(Int.init) == rtx)
    }

    @Test("Firefox H.264 without packetization-mode is not taken")
    func firefoxH264() throws {
        let h264Only = RelayNegotiator(capabilities: RelayCapabilities(codecs: [.opus, .h264]))
        let video = try #require(try h264Only.answer(toPublishOffer: SDPFixtures.firefoxOffer, relay: relay).negotiated.section(mid: "1"))
        #expect(video.codec.payloadType == 126)
        #expect(video.rtxPayloadType == 127)
    }

    @Test("relay preference orders codecs across kinds: H.264 before VP8 when asked")
    func relayPreference() throws {
        let preferH264 = RelayNegotiator(capabilities: RelayCapabilities(codecs: [.h264, .vp8, .opus]))
        let result = try preferH264.answer(toPublishOffer: SDPFixtures.aiortcOffer, relay: relay)
        #expect(result.negotiated.sections.map(\.codec.payloadType) == [96, 99])
        #expect(result.negotiated.section(mid: "1")?.rtxPayloadType == 100)
    }

    @Test("unsupported sections are rejected with port 0, keeping mid and position")
    func rejectedSections() throws {
        let offer = NegotiationFixtures.edited(
            NegotiationFixtures.offer(
                videoPayloadTypes: "98 99", videoCodecLines: ["a=rtpmap:98 VP9/90000", "a=rtpmap:99 rtx/90000", "a=fmtp:99 apt=98"],
                videoExtra: [
                    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0", "a=mid:2", "a=sctp-port:5000",
                    "m=audio 0 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0", "a=mid:3", "a=rtpmap:111 opus/48000/2",
                    "m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0", "a=mid:4", "a=recvonly", "a=rtcp-mux",
                    "a=rtpmap:111 opus/48000/2",
                ]),
            replacing: ["a=group:BUNDLE 0 1": ["a=group:BUNDLE 0 1 2 4"]])
        let result = try negotiator.answer(toPublishOffer: offer, relay: relay)
        #expect(result.negotiated.sections.map(\.mid) == ["0"])
        #expect(
            result.negotiated.rejectedSections == [
                RejectedSection(index: 1, mid: "1", kind: .video, reason: .noCommonCodec),
                RejectedSection(index: 2, mid: "2", kind: .application, reason: .unsupportedKind(.application)),
                RejectedSection(index: 3, mid: "3", kind: .audio, reason: .stoppedByClient),
                RejectedSection(index: 4, mid: "4", kind: .audio, reason: .notSending(.recvonly)),
            ])
        let answer = result.sessionDescription
        #expect(answer.groups == [.bundle(["0"])])
        #expect(answer.media.map(\.mid) == ["0", "1", "2", "3", "4"])
        #expect(answer.media.map(\.port) == [relay.candidatePort, 0, 0, 0, 0])
        #expect(answer.media[1].serializedLines() == ["m=video 0 UDP/TLS/RTP/SAVPF 98", "c=IN IP4 0.0.0.0", "a=mid:1"])
        #expect(answer.media[2].serializedLines().first == "m=application 0 UDP/DTLS/SCTP webrtc-datachannel")
    }

    @Test("setup: active and absent offers are answered passive")
    func setupRoles() throws {
        for (line, expected) in [(["a=setup:active"], SDPSetupRole.active), ([], nil)] as [([String], SDPSetupRole?)] {
            let offer = NegotiationFixtures.edited(SDPFixtures.chromiumOffer, replacing: ["a=setup:actpass": line])
            let result = try negotiator.answer(toPublishOffer: offer, relay: relay)
            #expect(result.negotiated.clientTransport.setup == expected)
            #expect(result.sessionDescription.media.allSatisfy { $0.transport.setup == .passive })
        }
    }

    @Test("rid simulcast: paused, alternatives, and rids restricted to another codec")
    func simulcastVariants() throws {
        let offer = NegotiationFixtures.offer(
            videoPayloadTypes: "96 97 98",
            videoCodecLines: ["a=rtpmap:96 VP8/90000", "a=rtpmap:97 rtx/90000", "a=fmtp:97 apt=96", "a=rtpmap:98 VP9/90000"],
            videoExtra: ["a=rid:f send pt=98", "a=rid:h send pt=96,97", "a=rid:h2 send", "a=rid:q send", "a=simulcast:send f;h,h2;~q"])
        let result = try negotiator.answer(toPublishOffer: offer, relay: relay)
        #expect(result.negotiated.section(mid: "1")?.simulcastRIDs == ["h", "h2", "q"])
        let video = result.sessionDescription.media[1]
        #expect(
            video.simulcast
                == SDPSimulcast(receive: [
                    [SDPSimulcastStream(rid: "h"), SDPSimulcastStream(rid: "h2")], [SDPSimulcastStream(rid: "q", isPaused: true)],
                ]))
        #expect(video.rids == ["h", "h2", "q"].map { SDPRID(id: $0, direction: .recv) })
    }

    @Test("no simulcast without the rtp-stream-id extension")
    func simulcastNeedsRidExtension() throws {
        let offer = NegotiationFixtures.edited(
            SDPFixtures.chromiumSimulcastOffer, removing: ["a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id"])
        let result = try negotiator.answer(toPublishOffer: offer, relay: relay)
        #expect(result.negotiated.section(mid: "1")?.simulcastRIDs == [])
        #expect(result.sessionDescription.media[1].simulcast == nil)
        #expect(result.sessionDescription.media[1].rids.isEmpty)
    }

    @Test("SSRC simulcast groups are reported")
    func ssrcSimulcast() throws {
        let offer = NegotiationFixtures.offer(
            videoPayloadTypes: "96 97",
            videoCodecLines: ["a=rtpmap:96 VP8/90000", "a=rtpmap:97 rtx/90000", "a=fmtp:97 apt=96"],
            videoExtra: [
                "a=ssrc-group:SIM 10 20 30", "a=ssrc-group:FID 10 11", "a=ssrc-group:FID 20 21", "a=ssrc-group:FID 30 31",
            ] + [10, 11, 20, 21, 30, 31].map { "a=ssrc:\($0) cname:legacy" })
        let video = try #require(try negotiator.answer(toPublishOffer: offer, relay: relay).negotiated.section(mid: "1"))
        #expect(video.ssrcs == [10, 20, 30])
        #expect(video.rtxSSRCs == [10: 11, 20: 21, 30: 31])
        #expect(video.simulcastSSRCGroups == [[10, 20, 30]])
        #expect(video.cname == "legacy")
    }

    @Test("extension directions: sendonly answered recvonly, recvonly dropped")
    func extensionDirections() throws {
        let offer = NegotiationFixtures.edited(
            SDPFixtures.chromiumOffer,
            replacing: [
                "a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level": ["a=extmap:1/sendonly urn:ietf:params:rtp-hdrext:ssrc-audio-level"],
                "a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid": ["a=extmap:4/recvonly urn:ietf:params:rtp-hdrext:sdes:mid"],
            ])
        let audio = try negotiator.answer(toPublishOffer: offer, relay: relay).sessionDescription.media[0]
        #expect(
            audio.extensionMaps == [
                SDPExtensionMap(id: 1, direction: .recvonly, uri: HeaderExtensionURI.audioLevel),
                SDPExtensionMap(id: 3, uri: HeaderExtensionURI.transportWideSequenceNumber),
            ])
    }

    @Test("without transport-wide congestion control the answer keeps neither its extension nor its feedback")
    func withoutTransportWideCongestionControl() throws {
        let negotiator = RelayNegotiator(capabilities: RelayCapabilities().withoutTransportWideCongestionControl())
        let result = try negotiator.answer(toPublishOffer: SDPFixtures.chromiumOffer, relay: relay)
        #expect(result.negotiated.sections.allSatisfy { $0.headerExtensions.transportWideSequenceNumber == nil })
        #expect(result.negotiated.sections.allSatisfy { !$0.feedback.contains(RelayCapabilities.transportWideFeedback) })
        #expect(!result.sdp.contains("transport-cc") && !result.sdp.contains(HeaderExtensionURI.transportWideSequenceNumber))
        // The rest of the feedback stays.
        #expect(result.negotiated.section(mid: "1")?.feedback == ["ccm fir", "nack", "nack pli"])
    }

    @Test("a bundle-only section with port 0 is accepted")
    func bundleOnly() throws {
        let offer = NegotiationFixtures.edited(
            SDPFixtures.chromiumOffer,
            replacing: [
                "m=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103 104 105 106 107 108 109 127 125 39 40 45 46 98 99 100 101 112 113 116 117 118": [
                    "m=video 0 UDP/TLS/RTP/SAVPF 96 97", "a=bundle-only",
                ]
            ])
        let result = try negotiator.answer(toPublishOffer: offer, relay: relay)
        #expect(result.negotiated.sections.map(\.mid) == ["0", "1"])
        #expect(result.sessionDescription.media[1].port == relay.candidatePort)
        #expect(!result.sessionDescription.media[1].isBundleOnly)
    }
}
