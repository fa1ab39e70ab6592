/// Why the relay could not answer a publish offer, build a subscription offer, or accept a
/// subscription answer.
public enum SDPNegotiationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The description text could not be read.
    case malformedDescription(SDPParseError)
    /// The section at `sectionIndex` (from 0) would be accepted but has no `a=mid`, which
    /// BUNDLE needs.
    case missingMid(sectionIndex: Int)
    /// Two sections, or two subscribed tracks, use the same mid.
    case duplicateMid(String)
    /// An accepted section has no `a=rtcp-mux`; the relay sends and receives RTCP on the
    /// media port only.
    case missingRTCPMux(mid: String)
    /// The description has no `a=group:BUNDLE`; the relay carries every section on one
    /// transport.
    case missingBundleGroup
    /// An accepted section is not in the BUNDLE group of the others.
    case sectionNotBundled(mid: String)
    /// No `a=ice-ufrag` applies to the section whose transport is used.
    case missingICEUsernameFragment(mid: String)
    /// No `a=ice-pwd` applies to the section whose transport is used.
    case missingICEPassword(mid: String)
    /// No `a=fingerprint` applies to the section whose transport is used.
    case missingFingerprint(mid: String)
    /// The offer's `a=setup` is not `actpass` or `active`; the relay is always the DTLS
    /// server.
    case unacceptableOfferSetup(mid: String, role: SDPSetupRole)
    /// The answer has no `a=setup`; it must say `active`.
    case missingAnswerSetup(mid: String)
    /// The answer's `a=setup` is not `active`; the relay offered `actpass` and is always the
    /// DTLS server.
    case unacceptableAnswerSetup(mid: String, role: SDPSetupRole)
    /// No section of the publish offer could be accepted; each rejected section says why.
    case noSectionAccepted([RejectedSection])
    /// A subscribed track's mid is empty or contains spaces or control characters.
    case invalidMid(String)
    /// A subscribed track's cname, stream id or track id (`field`) is empty or contains
    /// spaces or control characters.
    case invalidTrackIdentifier(mid: String, field: String)
    /// A subscribed track is neither audio nor video.
    case unsupportedTrackKind(mid: String, kind: SDPMediaKind)
    /// A subscribed track has a payload type above 127, or equal codec and rtx payload types.
    case invalidPayloadType(mid: String, payloadType: UInt8)
    /// A subscribed track has an rtx payload type without an rtx SSRC, or the reverse.
    case incompleteRetransmission(mid: String)
    /// Two subscribed tracks, or a track and its retransmission stream, share an SSRC.
    case duplicateSSRC(UInt32)
    /// Two bundled tracks use one payload type for different codec configurations.
    case payloadTypeConflict(payloadType: UInt8, mids: [String])
    /// A track reuses the mid of an earlier track of another kind.
    case trackKindChanged(mid: String, previous: SDPMediaKind, requested: SDPMediaKind)
    /// The answer does not have one section for each section of the offer.
    case answerSectionCountMismatch(offered: Int, answered: Int)
    /// An answer section's mid differs from the mid of the offer section at that position.
    case answerMidMismatch(sectionIndex: Int, offered: String, answered: String?)
    /// The answer accepts a section the offer had stopped (port 0).
    case answerAcceptedStoppedSection(mid: String)
    /// The answer lists a payload type the offer did not offer in that section.
    case answerPayloadTypeNotOffered(mid: String, payloadType: String)
    /// The answer accepts a section without the codec payload type the relay sends in it.
    case answerMissingCodec(mid: String, payloadType: UInt8)
    /// The answer maps the relay's codec payload type to a different codec.
    case answerCodecMismatch(mid: String, payloadType: UInt8)

    /// A message for app developers saying what is wrong and what the relay expects.
    public var description: String {
        switch self {
        case .malformedDescription(let error):
            "the session description could not be read: \(error)"
        case .missingMid(let index):
            "media section \(index) has no a=mid; every accepted section needs one for BUNDLE"
        case .duplicateMid(let mid):
            "mid '\(mid)' is used by more than one media section"
        case .missingRTCPMux(let mid):
            "section '\(mid)' has no a=rtcp-mux; the relay requires RTP and RTCP on one port"
        case .missingBundleGroup:
            "the description has no a=group:BUNDLE; the relay carries all media on one transport"
        case .sectionNotBundled(let mid):
            "section '\(mid)' is not in the BUNDLE group of the other accepted sections"
        case .missingICEUsernameFragment(let mid):
            "no a=ice-ufrag applies to section '\(mid)' (at media or session level)"
        case .missingICEPassword(let mid):
            "no a=ice-pwd applies to section '\(mid)' (at media or session level)"
        case .missingFingerprint(let mid):
            "no a=fingerprint applies to section '\(mid)' (at media or session level)"
        case .unacceptableOfferSetup(let mid, let role):
            "section '\(mid)' offers a=setup:\(role); the relay is always the DTLS server, so offer a=setup:actpass or a=setup:active"
        case .missingAnswerSetup(let mid):
            "section '\(mid)' of the answer has no a=setup; expected a=setup:active"
        case .unacceptableAnswerSetup(let mid, let role):
            "section '\(mid)' answers a=setup:\(role); the relay is always the DTLS server, so expected a=setup:active"
        case .noSectionAccepted(let rejected):
            "no media section could be accepted: "
                + (rejected.isEmpty ? "the offer has none" : rejected.map(\.description).joined(separator: "; "))
        case .invalidMid(let mid):
            "mid '\(mid)' must be non-empty, without spaces or control characters"
        case .invalidTrackIdentifier(let mid, let field):
            "the \(field) of track '\(mid)' must be non-empty, without spaces or control characters"
        case .unsupportedTrackKind(let mid, let kind):
            "track '\(mid)' has kind '\(kind)'; only audio and video can be subscribed"
        case .invalidPayloadType(let mid, let payloadType):
            "track '\(mid)' uses payload type \(payloadType); payload types are 0-127 and rtx needs its own"
        case .incompleteRetransmission(let mid):
            "track '\(mid)' needs both an rtx payload type and an rtx SSRC, or neither"
        case .duplicateSSRC(let ssrc):
            "SSRC \(ssrc) is used by more than one stream"
        case .payloadTypeConflict(let payloadType, let mids):
            "payload type \(payloadType) means different codecs in bundled sections \(mids.map { "'\($0)'" }.joined(separator: " and "))"
        case .trackKindChanged(let mid, let previous, let requested):
            "mid '\(mid)' was \(previous) and cannot carry \(requested); use a new mid"
        case .answerSectionCountMismatch(let offered, let answered):
            "the answer has \(answered) media sections; the offer had \(offered)"
        case .answerMidMismatch(let index, let offered, let answered):
            "answer section \(index) has mid '\(answered ?? "")'; the offer's section there is '\(offered)'"
        case .answerAcceptedStoppedSection(let mid):
            "the answer accepts section '\(mid)', which the offer stopped with port 0"
        case .answerPayloadTypeNotOffered(let mid, let payloadType):
            "section '\(mid)' of the answer lists payload type \(payloadType), which the offer did not offer there"
        case .answerMissingCodec(let mid, let payloadType):
            "section '\(mid)' of the answer accepts the section without payload type \(payloadType), the codec the relay sends"
        case .answerCodecMismatch(let mid, let payloadType):
            "section '\(mid)' of the answer maps payload type \(payloadType) to a different codec than the offer"
        }
    }
}
