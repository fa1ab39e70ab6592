/// Why the relay rejected a media section of a publish offer (or of a player's offer).
public enum SectionRejectionReason: Sendable, Hashable, CustomStringConvertible {
    /// The section is not audio or video (data channels, for instance).
    case unsupportedKind(SDPMediaKind)
    /// The client offered the section with port 0: it is stopped.
    case stoppedByClient
    /// The transport is not `UDP/TLS/RTP/SAVPF`.
    case unsupportedTransportProtocol(String)
    /// The client does not send in this section, so there is nothing to publish.
    case notSending(SDPDirection)
    /// None of the offered codecs is one the relay forwards.
    case noCommonCodec
    /// A player's section that does not receive: the relay only sends to a player.
    case notReceiving(SDPDirection)
    /// A second player section of a kind already answered: a player plays one audio and one
    /// video track.
    case secondOfKind

    /// The reason in words, for error messages.
    public var description: String {
        switch self {
        case .unsupportedKind(let kind): "media kind '\(kind)' is not forwarded"
        case .stoppedByClient: "the offer gives it port 0"
        case .unsupportedTransportProtocol(let proto): "transport '\(proto)' is not UDP/TLS/RTP/SAVPF"
        case .notSending(let direction): "the client does not send (a=\(direction))"
        case .noCommonCodec: "no offered codec is one the relay forwards (opus, VP8, H.264 packetization-mode=1)"
        case .notReceiving(let direction): "the player does not receive in it (a=\(direction))"
        case .secondOfKind: "a player plays one audio and one video track; the first section of the kind is used"
        }
    }
}
