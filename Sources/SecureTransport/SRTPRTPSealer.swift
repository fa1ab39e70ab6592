import COpenSSLShims

/// A send-only SRTP transform for RTP on OpenSSL (AEAD_AES_128_GCM, RFC 7714, or
/// AES_CM_128_HMAC_SHA1_80, RFC 3711), for senders that number their own packets: the caller
/// gives each packet's rollover counter. It is the counterpart of ``SRTPRTPOpener`` and, like
/// it, costs far less per packet than a libsrtp session built on NSS.
///
/// Not thread-safe and not `Sendable`: one thread uses it. The per-packet method neither locks
/// nor allocates.
final class SRTPRTPSealer {
    /// The OpenSSL context, owned by this object.
    let sealer: OpaquePointer

    /// Creates the sender from SDES or DTLS-SRTP keying material: the 16-byte master key
    /// followed by the profile's master salt.
    init(profile: SRTPProfile, keyingMaterial: [UInt8]) throws(SRTPSessionError) {
        sealer = try SRTPRTPContext.create(profile: profile, keyingMaterial: keyingMaterial, sealing: true)
    }

    deinit {
        pkr_srtp_rtp_destroy(sealer)
    }

    /// Encrypts an RTP packet in place and appends its tag.
    ///
    /// - Parameters:
    ///   - packet: The RTP packet; on success the SRTP packet replaces it.
    ///   - length: The packet's length; on success it becomes the SRTP packet's length.
    ///   - capacity: Bytes writable at `packet`: at least `length` plus the profile's tag.
    ///   - rolloverCounter: How many times this SSRC's sequence number has wrapped.
    /// - Returns: Whether the packet was sealed; when not, `length` is unchanged.
    func seal(_ packet: UnsafeMutableRawPointer, length: inout Int, capacity: Int, rolloverCounter: UInt32) -> Bool {
        guard length > 0, capacity >= 0 else { return false }
        let sealed = pkr_srtp_rtp_seal(sealer, packet.assumingMemoryBound(to: UInt8.self), length, capacity, rolloverCounter)
        guard sealed >= 0 else { return false }
        length = sealed
        return true
    }

    /// Seals an RTP packet whose head (the whole header, perhaps some payload) lies at `packet`
    /// and whose tail lies elsewhere: the SRTP packet is written at `packet`, the tail's
    /// ciphertext after the head. The same bytes as ``seal(_:length:capacity:rolloverCounter:)``
    /// on the joined packet, without copying the tail first.
    ///
    /// - Returns: The SRTP packet's length, or nil when the header is not within the head, the
    ///   tail overlaps the `capacity` bytes at `packet`, or `capacity` is short of `headLength + tailLength` plus
    ///   the profile's tag.
    func seal(
        _ packet: UnsafeMutableRawPointer, headLength: Int, tail: UnsafeRawPointer, tailLength: Int, capacity: Int, rolloverCounter: UInt32
    ) -> Int? {
        guard headLength > 0, tailLength >= 0, capacity >= 0 else { return nil }
        let sealed = pkr_srtp_rtp_seal_split(
            sealer, packet.assumingMemoryBound(to: UInt8.self), headLength, tail.assumingMemoryBound(to: UInt8.self), tailLength, capacity,
            rolloverCounter)
        return sealed >= 0 ? sealed : nil
    }
}
