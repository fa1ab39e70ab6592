/// The relay's DTLS side of a WebRTC transport: always the server, and its certificate's fingerprint.
public struct DTLSParameters: Sendable, Codable, Hashable {
    /// Always `server`: clients take the DTLS client (`setup:active`) role.
    public var role: String
    public var fingerprint: FingerprintParameters
    public init(role: String, fingerprint: FingerprintParameters) {
        self.role = role
        self.fingerprint = fingerprint
    }
}
