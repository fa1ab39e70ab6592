/// An SRTP suite and a base64 SDES keying material (master key followed by master salt).
public struct SRTPParameters: Sendable, Codable, Hashable {
    public var profile: String
    public var key: String
    public init(profile: String, key: String) {
        self.profile = profile
        self.key = key
    }
}
