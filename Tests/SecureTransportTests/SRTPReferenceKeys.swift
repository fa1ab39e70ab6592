/// Session keys derived from a master key for one of SRTP or SRTCP (RFC 3711 section 4.3).
struct SRTPReferenceKeys: Sendable, Equatable {
    /// The AES session key.
    var encryptionKey: [UInt8]
    /// The HMAC-SHA1 session key; empty for AEAD profiles, which authenticate with GCM.
    var authenticationKey: [UInt8]
    /// The session salt: 14 bytes for AES-CM, 12 for GCM.
    var salt: [UInt8]
}
