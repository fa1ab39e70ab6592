/// Result of `restartIce`: for a publishing transport the relay's answer (`sdp`), for a
/// receiving one the `revision` of the offer that carries the relay's new credentials.
public struct RestartIceResult: Sendable, Codable, Hashable {
    public var sdp: String?
    public var revision: Int?

    public init(sdp: String? = nil, revision: Int? = nil) {
        self.sdp = sdp
        self.revision = revision
    }
}
