/// The relay's ICE credentials for a WebRTC transport (it is an ICE-lite agent).
public struct ICEParameters: Sendable, Codable, Hashable {
    public var usernameFragment: String
    public var password: String
    public init(usernameFragment: String, password: String) {
        self.usernameFragment = usernameFragment
        self.password = password
    }
}
