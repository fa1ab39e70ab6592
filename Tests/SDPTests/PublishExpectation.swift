import SDP

/// What the relay must agree to for each section of a fixture offer.
struct PublishExpectation: Sendable, CustomStringConvertible {
    var name: String
    var offer: String
    var sections: [NegotiatedPublishSection]
    var clientUsernameFragment: String
    var clientFingerprintCount: Int
    var allowsMixedExtensionForms: Bool

    var description: String { name }

    static let all: [PublishExpectation] = [
        PublishExpectation(
            name: "Chromium", offer: SDPFixtures.chromiumOffer,
            sections: [
                NegotiatedPublishSection(
                    mid: "0", kind: .audio, codec: .opus(payloadType: 111), feedback: ["transport-cc"],
                    headerExtensions: NegotiatedHeaderExtensions(mid: 4, audioLevel: 1, transportWideSequenceNumber: 3),
                    isReducedSizeRTCP: true, ssrcs: [2_863_412_071], cname: "Hx7bq2KoT9vLm4Zs"),
                NegotiatedPublishSection(
                    mid: "1", kind: .video, codec: .vp8(payloadType: 96), rtxPayloadType: 97, feedback: ["transport-cc", "ccm fir", "nack", "nack pli"],
                    headerExtensions: NegotiatedHeaderExtensions(mid: 4, rtpStreamID: 10, repairedRTPStreamID: 11, transportWideSequenceNumber: 3),
                    isReducedSizeRTCP: true, ssrcs: [1_518_396_263], rtxSSRCs: [1_518_396_263: 3_067_519_340],
                    cname: "Hx7bq2KoT9vLm4Zs"),
            ],
            clientUsernameFragment: "Qm4x", clientFingerprintCount: 1, allowsMixedExtensionForms: true),
        PublishExpectation(
            name: "Chromium simulcast", offer: SDPFixtures.chromiumSimulcastOffer,
            sections: [
                NegotiatedPublishSection(
                    mid: "0", kind: .audio, codec: .opus(payloadType: 111), feedback: ["transport-cc"],
                    headerExtensions: NegotiatedHeaderExtensions(mid: 4, audioLevel: 1, transportWideSequenceNumber: 3),
                    isReducedSizeRTCP: true, ssrcs: [1_096_503_512], cname: "pZ3nW8rQk1Lx5VtY"),
                NegotiatedPublishSection(
                    mid: "1", kind: .video, codec: .vp8(payloadType: 96), rtxPayloadType: 97, feedback: ["transport-cc", "ccm fir", "nack", "nack pli"],
                    headerExtensions: NegotiatedHeaderExtensions(mid: 4, rtpStreamID: 10, repairedRTPStreamID: 11, transportWideSequenceNumber: 3),
                    isReducedSizeRTCP: true, simulcastRIDs: ["h", "m", "l"]),
            ],
            clientUsernameFragment: "hT8e", clientFingerprintCount: 1, allowsMixedExtensionForms: true),
        PublishExpectation(
            name: "Firefox", offer: SDPFixtures.firefoxOffer,
            sections: [
                NegotiatedPublishSection(
                    mid: "0", kind: .audio,
                    codec: .opus(payloadType: 109, formatParameters: "maxplaybackrate=48000;stereo=1;useinbandfec=1"),
                    headerExtensions: NegotiatedHeaderExtensions(mid: 3, audioLevel: 1), ssrcs: [3_347_196_504],
                    cname: "{3b9e5f70-a1c4-4d26-9f83-7c0e2d5a64b1}"),
                NegotiatedPublishSection(
                    mid: "1", kind: .video,
                    codec: CodecDescription(payloadType: 120, name: "VP8", clockRate: 90_000, formatParameters: "max-fs=12288;max-fr=60"),
                    rtxPayloadType: 124, feedback: ["nack", "nack pli", "ccm fir", "transport-cc"],
                    headerExtensions: NegotiatedHeaderExtensions(mid: 3, transportWideSequenceNumber: 7),
                    isReducedSizeRTCP: true, ssrcs: [2_469_785_347], rtxSSRCs: [2_469_785_347: 1_820_453_298],
                    cname: "{3b9e5f70-a1c4-4d26-9f83-7c0e2d5a64b1}"),
            ],
            clientUsernameFragment: "5c8e1f3a", clientFingerprintCount: 1, allowsMixedExtensionForms: false),
        PublishExpectation(
            name: "aiortc", offer: SDPFixtures.aiortcOffer,
            sections: [
                NegotiatedPublishSection(
                    mid: "0", kind: .audio, codec: .opus(payloadType: 96, formatParameters: nil),
                    headerExtensions: NegotiatedHeaderExtensions(mid: 1, audioLevel: 2), ssrcs: [1_912_740_386],
                    cname: "0a9f5e2c-8d41-4b73-a6e0-1c3d9f7b2e58"),
                NegotiatedPublishSection(
                    mid: "1", kind: .video, codec: .vp8(payloadType: 97), rtxPayloadType: 98, feedback: ["nack", "nack pli"],
                    headerExtensions: NegotiatedHeaderExtensions(mid: 1), ssrcs: [3_158_920_417],
                    rtxSSRCs: [3_158_920_417: 2_075_183_669], cname: "0a9f5e2c-8d41-4b73-a6e0-1c3d9f7b2e58"),
            ],
            clientUsernameFragment: "Xb2N", clientFingerprintCount: 3, allowsMixedExtensionForms: false),
    ]
}
