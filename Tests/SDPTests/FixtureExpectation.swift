import SDP

/// What a parsed fixture must contain, for the table of parsing tests.
struct FixtureExpectation: Sendable, CustomStringConvertible {
    var name: String
    var text: String
    var sessionID: UInt64
    var bundle: [String]
    var kinds: [SDPMediaKind]
    var mids: [String]
    var directions: [SDPDirection]
    var formatCounts: [Int]
    var iceUsernameFragment: String
    var fingerprintAlgorithms: [String]
    var setup: SDPSetupRole
    var allowsMixedExtensionForms: Bool
    var candidateCounts: [Int]
    var videoSSRCs: [UInt32]
    var videoFIDGroups: [[UInt32]]
    var simulcastSend: [String]

    var description: String { name }

    static let all: [FixtureExpectation] = [
        FixtureExpectation(
            name: "Chromium", text: SDPFixtures.chromiumOffer, sessionID: 4_215_775_240_449_105_457, bundle: ["0", "1"],
            kinds: [.audio, .video], mids: ["0", "1"], directions: [.sendrecv, .sendrecv], formatCounts: [8, 25],
            iceUsernameFragment: "Qm4x", fingerprintAlgorithms: ["sha-256"], setup: .actpass,
            allowsMixedExtensionForms: true, candidateCounts: [0, 0], videoSSRCs: [1_518_396_263, 3_067_519_340],
            videoFIDGroups: [[1_518_396_263, 3_067_519_340]], simulcastSend: []),
        FixtureExpectation(
            name: "Chromium simulcast", text: SDPFixtures.chromiumSimulcastOffer, sessionID: 7_719_504_436_817_220_138,
            bundle: ["0", "1"], kinds: [.audio, .video], mids: ["0", "1"], directions: [.sendonly, .sendonly],
            formatCounts: [8, 25], iceUsernameFragment: "hT8e", fingerprintAlgorithms: ["sha-256"], setup: .actpass,
            allowsMixedExtensionForms: true, candidateCounts: [0, 0], videoSSRCs: [], videoFIDGroups: [],
            simulcastSend: ["h", "m", "l"]),
        FixtureExpectation(
            name: "Firefox", text: SDPFixtures.firefoxOffer, sessionID: 3_062_468_907_214_436_735, bundle: ["0", "1"],
            kinds: [.audio, .video], mids: ["0", "1"], directions: [.sendrecv, .sendrecv], formatCounts: [5, 11],
            iceUsernameFragment: "5c8e1f3a", fingerprintAlgorithms: ["sha-256"], setup: .actpass,
            allowsMixedExtensionForms: false, candidateCounts: [0, 0], videoSSRCs: [2_469_785_347, 1_820_453_298],
            videoFIDGroups: [[2_469_785_347, 1_820_453_298]], simulcastSend: []),
        FixtureExpectation(
            name: "aiortc", text: SDPFixtures.aiortcOffer, sessionID: 3_942_218_716, bundle: ["0", "1"],
            kinds: [.audio, .video], mids: ["0", "1"], directions: [.sendrecv, .sendrecv], formatCounts: [3, 6],
            iceUsernameFragment: "Xb2N", fingerprintAlgorithms: ["sha-256", "sha-384", "sha-512"], setup: .actpass,
            allowsMixedExtensionForms: false, candidateCounts: [2, 2], videoSSRCs: [3_158_920_417, 2_075_183_669],
            videoFIDGroups: [[3_158_920_417, 2_075_183_669]], simulcastSend: []),
    ]
}
