import COpenSSLShims

/// A fresh ECDSA P-256 key with a self-signed X.509 certificate, the identity of this relay
/// in DTLS handshakes.
///
/// WebRTC peers do not check certificates against authorities: each side announces the
/// fingerprint of its certificate in SDP and checks the peer's after the handshake. So the
/// certificate only needs to be new, unguessable and valid for the life of the sessions
/// using it: it gets a random serial, a short subject and a validity window from a day ago
/// (tolerating clocks that run behind) to 30 days on.
///
/// Threading: immutable after creation, so `@unchecked Sendable`: OpenSSL's key and
/// certificate objects are reference counted and only ever read once built, which OpenSSL
/// allows from any number of threads.
public final class DTLSCertificate: @unchecked Sendable {
    /// The subject and issuer common name.
    public static let defaultCommonName = "pkrelay"
    /// Seconds before creation from which the certificate is valid.
    static let validBeforeCreation = 24 * 60 * 60
    /// Seconds after creation until which the certificate is valid.
    static let validAfterCreation = 30 * 24 * 60 * 60
    /// Random bytes in the serial number.
    static let serialLength = 16

    /// The DER encoding of the certificate, what fingerprints hash.
    public let derEncoded: [UInt8]
    /// The SHA-256 fingerprint, for this side's `a=fingerprint` line.
    public let fingerprint: DTLSFingerprint
    /// The private key, owned by this object.
    let key: OpaquePointer
    /// The certificate, owned by this object.
    let certificate: OpaquePointer

    /// Generates a new key pair and signs a certificate for it.
    ///
    /// - Parameter commonName: The subject (and issuer) common name.
    public init(commonName: String = DTLSCertificate.defaultCommonName) throws(DTLSError) {
        var generatedKey: OpaquePointer? = nil
        guard pkr_ec_p256_key_generate(&generatedKey) == 1, let generatedKey else {
            throw .certificateGenerationFailed(DTLSErrorText.take())
        }
        var serial = SecureRandom.bytes(Self.serialLength)
        // A positive serial that keeps its full length in DER.
        serial[0] = serial[0] & 0x7F | 0x40
        var signed: OpaquePointer? = nil
        let created = serial.withUnsafeBufferPointer { serial in
            pkr_x509_self_signed_create(
                generatedKey, serial.baseAddress, serial.count, commonName,
                -Self.validBeforeCreation, Self.validAfterCreation, &signed)
        }
        guard created == 1, let signed else {
            pkr_evp_pkey_free(generatedKey)
            throw .certificateGenerationFailed(DTLSErrorText.take())
        }
        var length = 0
        guard pkr_x509_der(signed, nil, 0, &length) == 1, length > 0 else {
            pkr_x509_free(signed)
            pkr_evp_pkey_free(generatedKey)
            throw .certificateGenerationFailed(DTLSErrorText.take())
        }
        var encodingSucceeded = false
        let encoded = [UInt8](unsafeUninitializedCapacity: length) { buffer, initializedCount in
            var written = 0
            encodingSucceeded =
                pkr_x509_der(signed, buffer.baseAddress, length, &written) == 1
                && written == length
            initializedCount = encodingSucceeded ? written : 0
        }
        guard encodingSucceeded else {
            pkr_x509_free(signed)
            pkr_evp_pkey_free(generatedKey)
            throw .certificateGenerationFailed(DTLSErrorText.take())
        }
        self.key = generatedKey
        self.certificate = signed
        self.derEncoded = encoded
        self.fingerprint = DTLSFingerprint(algorithm: .sha256, certificateDER: encoded)
    }

    deinit {
        pkr_x509_free(certificate)
        pkr_evp_pkey_free(key)
    }

    /// This certificate's fingerprint with `algorithm`, for peers that ask for another hash.
    public func fingerprint(using algorithm: DTLSFingerprintAlgorithm) -> DTLSFingerprint {
        DTLSFingerprint(algorithm: algorithm, certificateDER: derEncoded)
    }
}
