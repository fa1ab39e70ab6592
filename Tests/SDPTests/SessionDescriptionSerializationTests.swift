import SDP
import Testing

@Suite("Serialising")
struct SessionDescriptionSerializationTests {
    @Test("a built description gives exactly this text")
    func exactText() {
        var video = MediaDescription(kind: .video, port: 50_000, transportProtocol: "UDP/TLS/RTP/SAVPF", formats: ["96", "97"])
        video.connection = SDPConnection(address: "203.0.113.9")
        video.mid = "v"
        video.direction = .sendonly
        video.msids = [SDPMsid(streamID: "s", trackID: "t")]
        video.transport = SDPTransportAttributes(
            iceUsernameFragment: "ufrag", icePassword: "password", fingerprints: [SDPFingerprint(algorithm: "sha-256", bytes: [0xAB, 0x01])],
            setup: .actpass)
        video.candidates = [
            SDPCandidate(
                foundation: "1", component: 1, transport: "udp", priority: 2_130_706_431, address: "203.0.113.9", port: 50_000, type: "host")
        ]
        video.isEndOfCandidates = true
        video.isRTCPMultiplexed = true
        video.isReducedSizeRTCP = true
        video.extensionMaps = [SDPExtensionMap(id: 1, uri: "urn:ietf:params:rtp-hdrext:sdes:mid")]
        // Stored out of order: the writer groups them by payload type in m= line order.
        video.formatParameters = [SDPFormatParameters(payloadType: 97, value: "apt=96")]
        video.rtpMaps = [
            SDPRTPMap(payloadType: 97, encodingName: "rtx", clockRate: 90_000),
            SDPRTPMap(payloadType: 96, encodingName: "VP8", clockRate: 90_000),
        ]
        video.feedback = [SDPFeedback(payloadType: 96, type: "nack"), SDPFeedback(payloadType: nil, type: "ccm", parameter: "fir")]
        video.ssrcGroups = [SDPSSRCGroup(semantics: "FID", ssrcs: [1, 2])]
        video.ssrcAttributes = [SDPSSRCAttribute(ssrc: 1, name: "cname", value: "c")]
        video.rids = [SDPRID(id: "h", direction: .recv, payloadTypes: [96], restrictions: [SDPParameter(name: "max-fps", value: "30")])]
        video.simulcast = SDPSimulcast(receive: [[SDPSimulcastStream(rid: "h")], [SDPSimulcastStream(rid: "l", isPaused: true)]])
        video.otherAttributes = [SDPAttribute(name: "x-custom", value: "1")]
        let description = SessionDescription(
            origin: SDPOrigin(sessionID: 7, sessionVersion: 2), groups: [.bundle(["v"])], isICELite: true,
            allowsMixedExtensionForms: true, msidSemantic: SDPMsidSemantic(identifiers: ["*"]), media: [video])
        #expect(
            description.serialized() == """
                v=0\r
                o=- 7 2 IN IP4 0.0.0.0\r
                s=-\r
                t=0 0\r
                a=ice-lite\r
                a=group:BUNDLE v\r
                a=extmap-allow-mixed\r
                a=msid-semantic:WMS *\r
                m=video 50000 UDP/TLS/RTP/SAVPF 96 97\r
                c=IN IP4 203.0.113.9\r
                a=mid:v\r
                a=sendonly\r
                a=msid:s t\r
                a=ice-ufrag:ufrag\r
                a=ice-pwd:password\r
                a=fingerprint:sha-256 AB:01\r
                a=setup:actpass\r
                a=candidate:1 1 udp 2130706431 203.0.113.9 50000 typ host\r
                a=end-of-candidates\r
                a=rtcp-mux\r
                a=rtcp-rsize\r
                a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid\r
                a=rtcp-fb:* ccm fir\r
                a=rtpmap:96 VP8/90000\r
                a=rtcp-fb:96 nack\r
                a=rtpmap:97 rtx/90000\r
                a=fmtp:97 apt=96\r
                a=ssrc-group:FID 1 2\r
                a=ssrc:1 cname:c\r
                a=rid:h recv pt=96;max-fps=30\r
                a=simulcast:recv h;~l\r
                a=x-custom:1\r

                """)
    }

    @Test("writing, reading and writing again gives the same text and content", arguments: FixtureExpectation.all)
    func roundTrip(_ fixture: FixtureExpectation) throws {
        let original = try SessionDescription(parsing: fixture.text)
        let text = original.serialized()
        let reread = try SessionDescription(parsing: text)
        #expect(reread.serialized() == text)
        #expect(text.hasSuffix("\r\n"))
        #expect(!text.replacing("\r\n", with: "").contains("\n"))
        #expect(reread.origin == original.origin)
        #expect(reread.groups == original.groups)
        #expect(reread.transport == original.transport)
        #expect(reread.media.count == original.media.count)
        for (again, first) in zip(reread.media, original.media) {
            #expect(again.serializedLines().first == first.serializedLines().first)
            #expect(again.mid == first.mid)
            #expect(again.transport == first.transport)
            #expect(again.candidates == first.candidates)
            #expect(again.extensionMaps == first.extensionMaps)
            #expect(Set(again.rtpMaps) == Set(first.rtpMaps))
            #expect(Set(again.formatParameters) == Set(first.formatParameters))
            #expect(Set(again.feedback) == Set(first.feedback))
            #expect(again.ssrcAttributes == first.ssrcAttributes)
            #expect(again.ssrcGroups == first.ssrcGroups)
            #expect(again.rids == first.rids)
            #expect(again.simulcast == first.simulcast)
            #expect(again.otherAttributes == first.otherAttributes)
        }
    }

    @Test("Firefox's fmtp-first order comes out grouped by payload type")
    func grouping() throws {
        let text = try SessionDescription(parsing: SDPFixtures.firefoxOffer).serialized()
        let lines = text.split(separator: "\r\n").filter { $0.contains(":126 ") || $0.contains(":127 ") }
        #expect(
            lines == [
                "a=rtpmap:126 H264/90000",
                "a=rtcp-fb:126 nack", "a=rtcp-fb:126 nack pli", "a=rtcp-fb:126 ccm fir", "a=rtcp-fb:126 goog-remb",
                "a=rtcp-fb:126 transport-cc",
                "a=fmtp:126 profile-level-id=42e01f;level-asymmetry-allowed=1;packetization-mode=1",
                "a=rtpmap:127 rtx/90000",
                "a=fmtp:127 apt=126",
            ])
    }
}

extension SessionDescriptionSerializationTests {
    /// A combining mark after a tab, `=` or `:` joins it into one Swift character; text is
    /// split at the separators' bytes, so what was read is written and read back the same.
    @Test(
        "a combining mark after a separator is read the same after writing",
        arguments: [
            "a=\t\u{5B7}\t\u{FFFD}l\t\t:3:",
            "a=\u{301}tool:x",
            "a=tool:\u{301}x y",
            "a=ssrc:1 cname:\u{301}x",
            "a=fmtp:96 \u{301}profile=1",
        ])
    func combiningMarkAfterSeparator(_ line: String) throws {
        let text =
            "v=0\no=- 2630 2 IN IP4 0.0.0.0\ns=-\nt=0 0\n" + (line.hasPrefix("a=ssrc") || line.hasPrefix("a=fmtp") ? "m=video 9 UDP/TLS/RTP/SAVPF 96\n" : "")
            + line + "\n"
        let first = try SessionDescription(parsing: text)
        let written = first.serialized()
        let reread = try SessionDescription(parsing: written)
        #expect(reread == first)
        #expect(reread.serialized() == written)
    }

    @Test("an attribute splits at its first colon even when a combining mark follows it")
    func colonBeforeCombiningMark() throws {
        let text = "v=0\no=- 1 2 IN IP4 0.0.0.0\ns=-\nt=0 0\na=tool:\u{301}x\n"
        let description = try SessionDescription(parsing: text)
        #expect(description.otherAttributes == [SDPAttribute(name: "tool", value: "\u{301}x")])
    }
}
