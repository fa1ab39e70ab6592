import SDP
import Testing

/// An edit of the Chromium offer and the error the relay's answer must give.
struct PublishErrorCase: Sendable, CustomStringConvertible {
    var name: String
    var offer: String
    var expected: SDPNegotiationError
    var description: String { name }

    init(_ name: String, removing prefixes: [String] = [], replacing: [String: [String]] = [:], _ expected: SDPNegotiationError) {
        self.name = name
        self.offer = NegotiationFixtures.edited(SDPFixtures.chromiumOffer, removing: prefixes, replacing: replacing)
        self.expected = expected
    }
}

@Suite("Publish: offers the relay refuses")
struct PublishNegotiationErrorTests {
    static let videoLine = "m=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103 104 105 106 107 108 109 127 125 39 40 45 46 98 99 100 101 112 113 116 117 118"

    static let cases: [PublishErrorCase] = [
        PublishErrorCase("no ice-ufrag", removing: ["a=ice-ufrag"], .missingICEUsernameFragment(mid: "0")),
        PublishErrorCase("no ice-pwd", removing: ["a=ice-pwd"], .missingICEPassword(mid: "0")),
        PublishErrorCase("no fingerprint", removing: ["a=fingerprint"], .missingFingerprint(mid: "0")),
        PublishErrorCase("no BUNDLE group", removing: ["a=group:BUNDLE"], .missingBundleGroup),
        PublishErrorCase("BUNDLE without the video", replacing: ["a=group:BUNDLE 0 1": ["a=group:BUNDLE 0"]], .sectionNotBundled(mid: "1")),
        PublishErrorCase("BUNDLE of other mids", replacing: ["a=group:BUNDLE 0 1": ["a=group:BUNDLE 7"]], .sectionNotBundled(mid: "0")),
        PublishErrorCase("no rtcp-mux", removing: ["a=rtcp-mux"], .missingRTCPMux(mid: "0")),
        PublishErrorCase("setup passive", replacing: ["a=setup:actpass": ["a=setup:passive"]], .unacceptableOfferSetup(mid: "0", role: .passive)),
        PublishErrorCase("setup holdconn", replacing: ["a=setup:actpass": ["a=setup:holdconn"]], .unacceptableOfferSetup(mid: "0", role: .holdconn)),
        PublishErrorCase("no mid", removing: ["a=mid:"], replacing: ["a=group:BUNDLE 0 1": []], .missingMid(sectionIndex: 0)),
        PublishErrorCase("duplicate mid", replacing: ["a=mid:1": ["a=mid:0"]], .duplicateMid("0")),
        PublishErrorCase(
            "nothing in common", removing: ["a=rtpmap:111", "a=rtpmap:96 ", "a=rtpmap:102 ", "a=rtpmap:106 ", "a=rtpmap:127 ", "a=rtpmap:112 "],
            .noSectionAccepted([
                RejectedSection(index: 0, mid: "0", kind: .audio, reason: .noCommonCodec),
                RejectedSection(index: 1, mid: "1", kind: .video, reason: .noCommonCodec),
            ])),
        PublishErrorCase(
            "only data channels", removing: ["m=audio", "a=sendrecv"],
            replacing: [videoLine: ["m=application 9 UDP/DTLS/SCTP webrtc-datachannel"]],
            .noSectionAccepted([RejectedSection(index: 0, mid: "1", kind: .application, reason: .unsupportedKind(.application))])),
        PublishErrorCase(
            "malformed rtpmap", replacing: ["a=rtpmap:111 opus/48000/2": ["a=rtpmap:111 opus"]],
            .malformedDescription(.invalidAttribute(line: 25, name: "rtpmap"))),
    ]

    @Test("each missing or wrong requirement gives its error", arguments: cases)
    func refused(_ testCase: PublishErrorCase) {
        #expect(throws: testCase.expected) {
            try RelayNegotiator().answer(toPublishOffer: testCase.offer, relay: NegotiationFixtures.relay)
        }
    }

    @Test("an offer without sections names that in its message")
    func emptyOffer() {
        let offer = SDPTestText.sessionLines.joined(separator: "\n")
        #expect(throws: SDPNegotiationError.noSectionAccepted([])) {
            try RelayNegotiator().answer(toPublishOffer: offer, relay: NegotiationFixtures.relay)
        }
        #expect(SDPNegotiationError.noSectionAccepted([]).description == "no media section could be accepted: the offer has none")
        #expect(
            SDPNegotiationError.noSectionAccepted([RejectedSection(index: 1, mid: "v", kind: .video, reason: .noCommonCodec)]).description
                == "no media section could be accepted: section 1 (video, mid 'v'): no offered codec is one the relay forwards (opus, VP8, "
                    + "H.264 packetization-mode=1)"
        )
    }
}
