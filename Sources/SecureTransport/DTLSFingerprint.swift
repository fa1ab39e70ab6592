/// The fingerprint of a certificate: a hash of its DER encoding (RFC 8122).
///
/// Each side of a WebRTC DTLS association puts the fingerprint of its certificate in the
/// SDP it sends over the authenticated signalling channel; after the handshake the other
/// side checks that the certificate the peer presented hashes to it. That check is what
/// authenticates the peer, since the certificates themselves are self-signed.
public struct DTLSFingerprint: Sendable, Hashable {
    /// The hash function.
    public let algorithm: DTLSFingerprintAlgorithm
    /// The digest, ``DTLSFingerprintAlgorithm/digestLength`` bytes.
    public let digest: [UInt8]

    /// A fingerprint from its parts, or `nil` when `digest` does not have the algorithm's length.
    public init?(algorithm: DTLSFingerprintAlgorithm, digest: [UInt8]) {
        guard digest.count == algorithm.digestLength else { return nil }
        self.algorithm = algorithm
        self.digest = digest
    }

    /// The fingerprint of the certificate whose DER encoding is `certificateDER`.
    public init(algorithm: DTLSFingerprintAlgorithm, certificateDER: [UInt8]) {
        self.algorithm = algorithm
        self.digest = algorithm.digest(of: certificateDER)
    }

    /// Whether this fingerprint is the one of the certificate whose DER encoding is
    /// `certificateDER`, hashed with this fingerprint's own algorithm.
    public func matches(certificateDER: [UInt8]) -> Bool {
        algorithm.digest(of: certificateDER) == digest
    }
}
