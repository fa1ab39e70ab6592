/// An ICE server (STUN or TURN) a client may use to reach the relay, in the shape of WebRTC's
/// `RTCIceServer`: pass it to `new RTCPeerConnection({iceServers: [...]})` as it is.
public struct ICEServer: Sendable, Codable, Hashable {
    /// `stun:`, `stuns:`, `turn:` or `turns:` URLs (RFC 7064, RFC 7065).
    public var urls: [String]
    /// TURN only: the user name, time-limited when the relay minted it.
    public var username: String?
    /// TURN only: the password.
    public var credential: String?

    public init(urls: [String], username: String? = nil, credential: String? = nil) {
        self.urls = urls
        self.username = username
        self.credential = credential
    }
}
