/// A certificate fingerprint as SDP writes it: `sha-256` and uppercase hex pairs joined by colons.
public struct FingerprintParameters: Sendable, Codable, Hashable {
    public var algorithm: String
    public var value: String
    public init(algorithm: String, value: String) {
        self.algorithm = algorithm
        self.value = value
    }
}
