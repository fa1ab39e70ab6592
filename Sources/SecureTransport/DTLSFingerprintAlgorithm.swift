import COpenSSLShims

/// A hash function for certificate fingerprints, spelled as SDP's `a=fingerprint` names it
/// (RFC 8122 section 5).
public enum DTLSFingerprintAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// SHA-256, what browsers put in their offers and answers.
    case sha256 = "sha-256"
    /// SHA-384.
    case sha384 = "sha-384"
    /// SHA-512.
    case sha512 = "sha-512"

    /// Length in bytes of a digest.
    public var digestLength: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The shim's code for this hash function.
    var digestCode: Int32 {
        switch self {
        case .sha256: PKR_DIGEST_SHA256
        case .sha384: PKR_DIGEST_SHA384
        case .sha512: PKR_DIGEST_SHA512
        }
    }

    /// The digest of `bytes`.
    ///
    /// Stops the process if OpenSSL cannot hash: that only happens when it is broken or out
    /// of memory, and a peer could not be authenticated either way.
    func digest(of bytes: [UInt8]) -> [UInt8] {
        let capacity = Int(PKR_DIGEST_MAX_LENGTH)
        return bytes.withUnsafeBufferPointer { input in
            [UInt8](unsafeUninitializedCapacity: capacity) { output, initializedCount in
                var written = 0
                guard
                    pkr_message_digest(
                        digestCode, input.baseAddress, input.count, output.baseAddress, &written) == 1,
                    written == digestLength
                else {
                    fatalError("OpenSSL could not compute a \(rawValue) digest")
                }
                initializedCount = written
            }
        }
    }
}
