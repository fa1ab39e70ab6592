import COpenSSLShims

/// A receive-only SRTP transform for RTP on OpenSSL (AEAD_AES_128_GCM, RFC 7714, or
/// AES_CM_128_HMAC_SHA1_80, RFC 3711), for receivers that count packets themselves: it
/// verifies and decrypts each packet with the cipher context kept between packets, and leaves
/// the rollover counter and duplicate detection to the caller (``SRTPSession`` keeps libsrtp's
/// replay windows around it). It costs far less per packet than a libsrtp session built on NSS.
///
/// Not thread-safe and not `Sendable`: one thread uses it. The per-packet method neither locks
/// nor allocates.
final class SRTPRTPOpener {
    private let opener: OpaquePointer

    /// Creates the receiver from SDES or DTLS-SRTP keying material: the 16-byte master key
    /// followed by the profile's master salt.
    init(profile: SRTPProfile, keyingMaterial: [UInt8]) throws(SRTPSessionError) {
        opener = try SRTPRTPContext.create(profile: profile, keyingMaterial: keyingMaterial, sealing: false)
    }

    deinit {
        pkr_srtp_rtp_destroy(opener)
    }

    /// Verifies and decrypts an SRTP packet in place.
    ///
    /// - Parameters:
    ///   - packet: The SRTP packet; on `.ok` the RTP packet replaces it.
    ///   - length: The packet's length; on `.ok` it becomes the RTP packet's length.
    ///   - rolloverCounter: The sender's rollover counter for this packet's sequence number
    ///     (RFC 3711 section 3.3.1): the extended sequence number shifted right by 16.
    /// - Returns: `.ok`, `.malformed` (too short, or not an RTP header) or
    ///   `.authenticationFailed`; on anything but `.ok`, `length` is unchanged and the payload
    ///   unspecified.
    func open(_ packet: UnsafeMutableRawPointer, length: inout Int, rolloverCounter: UInt32) -> SRTPStatus {
        guard length > 0 else { return .malformed }
        return .opening(pkr_srtp_rtp_open(opener, packet.assumingMemoryBound(to: UInt8.self), length, rolloverCounter), length: &length)
    }
}
