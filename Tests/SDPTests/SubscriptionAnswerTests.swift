import Foundation
import SDP
import Testing

/// An edit of the Chromium-shaped answer and the error reading it must give.
struct SubscriptionAnswerErrorCase: Sendable, CustomStringConvertible {
    var name: String
    var answer: String
    var expected: SDPNegotiationError
    var description: String { name }

    init(_ name: String, removing prefixes: [String] = [], replacing: [String: [String]] = [:], _ expected: SDPNegotiationError) {
        self.name = name
        self.answer = NegotiationFixtures.edited(SubscriptionFixtures.chromiumAnswer, removing: prefixes, replacing: replacing)
        self.expected = expected
    }

    init(_ name: String, answer: String, _ expected: SDPNegotiationError) {
        self.name = name
        self.answer = answer
        self.expected = expected
    }
}

@Suite("Subscribe: the client answers")
struct SubscriptionAnswerTests {
    let negotiator = RelayNegotiator()

    func offer() throws -> SubscriptionOffer {
        try negotiator.offer(
            forSubscription: [SubscriptionFixtures.aliceAudio, SubscriptionFixtures.aliceVideo], relay: NegotiationFixtures.relay,
            version: 1)
    }

    @Test("a Chromium answer accepting both sections")
    func accepted() throws {
        let answer = try negotiator.parseAnswer(SubscriptionFixtures.chromiumAnswer, toSubscriptionOffer: try offer())
        #expect(answer.acceptedMids == ["a0", "v0"])
        #expect(answer.declinedMids == [])
        #expect(answer.retransmissionMids == ["v0"])
        let transport = try #require(answer.clientTransport)
        #expect(transport.iceUsernameFragment == "Kd5s")
        #expect(transport.icePassword == "Wq1Zc8Nv4Tb7Lx2Rm6Hp9Fj3")
        #expect(transport.setup == .active)
        #expect(transport.fingerprints.map(\.bytes?.count) == [32])
    }

    @Test("an answer that keeps the transport-wide number under the offered id turns on its feedback; one without it, or under another id, does not")
    func transportWideSequenceNumber() throws {
        let extmap = "a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"
        let kept = NegotiationFixtures.edited(
            SubscriptionFixtures.chromiumAnswer,
            replacing: ["a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid": ["a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid", extmap]])
        #expect(try negotiator.parseAnswer(kept, toSubscriptionOffer: try offer()).transportWideSequenceExtensionId == 3)
        #expect(try negotiator.parseAnswer(SubscriptionFixtures.chromiumAnswer, toSubscriptionOffer: try offer()).transportWideSequenceExtensionId == nil)
        let moved = kept.replacingOccurrences(of: "a=extmap:3 http", with: "a=extmap:9 http")
        #expect(try negotiator.parseAnswer(moved, toSubscriptionOffer: try offer()).transportWideSequenceExtensionId == nil)
    }

    @Test("an answer without the offered rtx keeps the section but not its retransmission stream")
    func retransmissionDeclined() throws {
        let text = NegotiationFixtures.edited(
            SubscriptionFixtures.chromiumAnswer, removing: ["a=rtpmap:97", "a=fmtp:97"],
            replacing: ["m=video 9 UDP/TLS/RTP/SAVPF 96 97": ["m=video 9 UDP/TLS/RTP/SAVPF 96"]])
        let answer = try negotiator.parseAnswer(text, toSubscriptionOffer: try offer())
        #expect(answer.acceptedMids == ["a0", "v0"])
        #expect(answer.retransmissionMids == [])
    }

    @Test(
        "sections rejected or not received are declined",
        arguments: [
            ["m=video 9 UDP/TLS/RTP/SAVPF 96 97": ["m=video 0 UDP/TLS/RTP/SAVPF 96 97"]],
            ["a=mid:v0": ["a=mid:v0", "a=inactive"], "a=recvonly": []],
        ] as [[String: [String]]])
    func declined(_ replacements: [String: [String]]) throws {
        var replacing = replacements
        if replacing["a=recvonly"] != nil { replacing["a=mid:a0"] = ["a=mid:a0", "a=recvonly"] }
        let text = NegotiationFixtures.edited(SubscriptionFixtures.chromiumAnswer, replacing: replacing)
        let answer = try negotiator.parseAnswer(text, toSubscriptionOffer: try offer())
        #expect(answer.acceptedMids == ["a0"])
        #expect(answer.declinedMids == ["v0"])
        #expect(answer.clientTransport?.setup == .active)
    }

    /// The offer of `aliceAudio` after `aliceVideo` stopped: v0 is offered inactive.
    func offerWithInactiveVideo() throws -> SubscriptionOffer {
        try negotiator.offer(
            forSubscription: [SubscriptionFixtures.aliceAudio], previous: try offer().layout, relay: NegotiationFixtures.relay,
            version: 2)
    }

    /// Edits of the Chromium answer that decline v0 (which offers only payload type 96 once
    /// inactive): port 0 out of BUNDLE, or a live port with a direction that does not receive
    /// (how Chromium and aiortc answer an inactive section). a0 keeps receiving.
    static let declines: [[String: [String]]] = [
        ["m=video 9 UDP/TLS/RTP/SAVPF 96 97": ["m=video 0 UDP/TLS/RTP/SAVPF 96"], "a=group:BUNDLE a0 v0": ["a=group:BUNDLE a0"]],
        [
            "m=video 9 UDP/TLS/RTP/SAVPF 96 97": ["m=video 9 UDP/TLS/RTP/SAVPF 96"], "a=recvonly": [],
            "a=mid:a0": ["a=mid:a0", "a=recvonly"], "a=mid:v0": ["a=mid:v0", "a=inactive"],
        ],
        [
            "m=video 9 UDP/TLS/RTP/SAVPF 96 97": ["m=video 9 UDP/TLS/RTP/SAVPF 96"], "a=recvonly": [],
            "a=mid:a0": ["a=mid:a0", "a=recvonly"], "a=mid:v0": ["a=mid:v0", "a=sendonly"],
        ],
    ]

    /// Chromium's answer receiving on v0 with the one payload type the inactive section offers.
    static let receivingOnV0 = NegotiationFixtures.edited(
        SubscriptionFixtures.chromiumAnswer, replacing: ["m=video 9 UDP/TLS/RTP/SAVPF 96 97": ["m=video 9 UDP/TLS/RTP/SAVPF 96"]])

    @Test("an inactive section answered with port 0 or without receiving is declined", arguments: declines)
    func inactiveSectionDeclined(_ replacements: [String: [String]]) throws {
        let text = NegotiationFixtures.edited(SubscriptionFixtures.chromiumAnswer, replacing: replacements)
        let answer = try negotiator.parseAnswer(text, toSubscriptionOffer: try offerWithInactiveVideo())
        #expect(answer.acceptedMids == ["a0"])
        // declinedMids lists only sections the relay offered active; an inactive one carries
        // nothing either way.
        #expect(answer.declinedMids == [])
        #expect(answer.clientTransport?.setup == .active)
    }

    // Receiving on a section the relay offered inactive is the same mistake as accepting a
    // stopped one.
    @Test("an answer receiving on an inactive section is refused")
    func inactiveSectionReceived() throws {
        let offer = try offerWithInactiveVideo()
        #expect(throws: SDPNegotiationError.answerAcceptedStoppedSection(mid: "v0")) {
            try negotiator.parseAnswer(Self.receivingOnV0, toSubscriptionOffer: offer)
        }
    }

    /// `offerWithInactiveVideo()` with v0 stopped (port 0), as an offer from a relay that
    /// stopped unused sections.
    func offerWithStoppedVideo() throws -> SubscriptionOffer {
        var offer = try offerWithInactiveVideo()
        offer.sessionDescription.media[1].port = 0
        return offer
    }

    @Test("a stopped section answered with port 0 or without receiving is declined", arguments: declines)
    func stoppedSectionDeclined(_ replacements: [String: [String]]) throws {
        let text = NegotiationFixtures.edited(SubscriptionFixtures.chromiumAnswer, replacing: replacements)
        let answer = try negotiator.parseAnswer(text, toSubscriptionOffer: try offerWithStoppedVideo())
        #expect(answer.acceptedMids == ["a0"])
        // A stopped section was not offered for use, so it is not listed as declined.
        #expect(answer.declinedMids == [])
        #expect(answer.clientTransport?.setup == .active)
    }

    @Test("an answer receiving on a stopped section is refused")
    func stoppedSectionReceived() throws {
        let offer = try offerWithStoppedVideo()
        #expect(throws: SDPNegotiationError.answerAcceptedStoppedSection(mid: "v0")) {
            try negotiator.parseAnswer(Self.receivingOnV0, toSubscriptionOffer: offer)
        }
    }

    @Test("an answer accepting nothing has no transport")
    func nothingAccepted() throws {
        let text = NegotiationFixtures.edited(
            SubscriptionFixtures.chromiumAnswer,
            replacing: [
                "m=audio 9 UDP/TLS/RTP/SAVPF 111": ["m=audio 0 UDP/TLS/RTP/SAVPF 111"],
                "m=video 9 UDP/TLS/RTP/SAVPF 96 97": ["m=video 0 UDP/TLS/RTP/SAVPF 96 97"],
            ])
        let answer = try negotiator.parseAnswer(text, toSubscriptionOffer: try offer())
        #expect(answer == SubscriptionAnswer(acceptedMids: [], declinedMids: ["a0", "v0"], clientTransport: nil))
    }

    static let errorCases: [SubscriptionAnswerErrorCase] = [
        SubscriptionAnswerErrorCase("setup passive", replacing: ["a=setup:active": ["a=setup:passive"]], .unacceptableAnswerSetup(mid: "a0", role: .passive)),
        SubscriptionAnswerErrorCase("setup actpass", replacing: ["a=setup:active": ["a=setup:actpass"]], .unacceptableAnswerSetup(mid: "a0", role: .actpass)),
        SubscriptionAnswerErrorCase("no setup", removing: ["a=setup"], .missingAnswerSetup(mid: "a0")),
        SubscriptionAnswerErrorCase("no ice-pwd", removing: ["a=ice-pwd"], .missingICEPassword(mid: "a0")),
        SubscriptionAnswerErrorCase("no fingerprint", removing: ["a=fingerprint"], .missingFingerprint(mid: "a0")),
        SubscriptionAnswerErrorCase("no BUNDLE", removing: ["a=group"], .missingBundleGroup),
        SubscriptionAnswerErrorCase("no rtcp-mux", removing: ["a=rtcp-mux"], .missingRTCPMux(mid: "a0")),
        SubscriptionAnswerErrorCase(
            "payload type not offered",
            replacing: ["m=video 9 UDP/TLS/RTP/SAVPF 96 97": ["m=video 9 UDP/TLS/RTP/SAVPF 96 98"]],
            .answerPayloadTypeNotOffered(mid: "v0", payloadType: "98")),
        SubscriptionAnswerErrorCase(
            "codec dropped, rtx kept",
            replacing: ["m=video 9 UDP/TLS/RTP/SAVPF 96 97": ["m=video 9 UDP/TLS/RTP/SAVPF 97"]],
            .answerMissingCodec(mid: "v0", payloadType: 96)),
        SubscriptionAnswerErrorCase(
            "codec remapped", replacing: ["a=rtpmap:96 VP8/90000": ["a=rtpmap:96 VP9/90000"]], .answerCodecMismatch(mid: "v0", payloadType: 96)),
        SubscriptionAnswerErrorCase(
            "mid changed", replacing: ["a=mid:v0": ["a=mid:video"]], .answerMidMismatch(sectionIndex: 1, offered: "v0", answered: "video")),
        SubscriptionAnswerErrorCase(
            "a section missing", answer: String(SubscriptionFixtures.chromiumAnswer.split(separator: "m=video")[0]),
            .answerSectionCountMismatch(offered: 2, answered: 1)),
        SubscriptionAnswerErrorCase("not SDP", replacing: ["v=0": ["v=2"]], .malformedDescription(.unsupportedVersion(line: 1))),
    ]

    @Test("answers the relay refuses give their error", arguments: errorCases)
    func refused(_ testCase: SubscriptionAnswerErrorCase) throws {
        let offer = try offer()
        #expect(throws: testCase.expected) { try negotiator.parseAnswer(testCase.answer, toSubscriptionOffer: offer) }
    }
}
