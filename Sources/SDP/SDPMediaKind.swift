/// The media type of an `m=` line.
public enum SDPMediaKind: Sendable, Hashable, CustomStringConvertible {
    /// RTP audio.
    case audio
    /// RTP video.
    case video
    /// Non-RTP media such as WebRTC data channels.
    case application
    /// Any other media token (`text`, `message`, ...), kept as written.
    case other(String)

    /// Reads the media token of an `m=` line; tokens are compared without regard to case.
    public init(token: some StringProtocol) {
        switch token.lowercased() {
        case "audio": self = .audio
        case "video": self = .video
        case "application": self = .application
        default: self = .other(String(token))
        }
    }

    /// The token written in an `m=` line.
    public var token: String {
        switch self {
        case .audio: "audio"
        case .video: "video"
        case .application: "application"
        case .other(let token): token
        }
    }

    /// The media token, as `token`.
    public var description: String { token }
}
