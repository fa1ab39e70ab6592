import COpenSSLShims

/// A send-only SRTP transform for `AEAD_AES_128_GCM` (RFC 7714) on OpenSSL, for senders that
/// number their own packets: the caller gives each packet's rollover counter. It is the
/// counterpart of ``SRTPGCMReceiver`` and, like it, costs far less per packet than a libsrtp
/// session built on NSS.
///
/// Not thread-safe and not `Sendable`: one thread uses it. The per-packet method neither locks
/// nor allocates.
final class SRTPGCMSender {
    private let sealer: OpaquePointer

    /// Creates the sender from SDES or DTLS-SRTP keying material: the 16-byte master key
    /// followed by the 12-byte master salt.
    init(keyingMaterial: [UInt8]) throws(SRTPSessionError) {
        sealer = try SRTPGCMContext.create(keyingMaterial: keyingMaterial, sealing: true)
    }

    deinit {
        pkr_srtp_gcm_destroy(sealer)
    }

    /// Encrypts an RTP packet in place and appends its 16-byte tag.
    ///
    /// - Parameters:
    ///   - packet: The RTP packet; on success the SRTP packet replaces it.
    ///   - length: The packet's length; on success it becomes the SRTP packet's length.
    ///   - capacity: Bytes writable at `packet`: at least `length + 16`.
    ///   - rolloverCounter: How many times this SSRC's sequence number has wrapped.
    /// - Returns: Whether the packet was sealed; when not, `length` is unchanged.
    func seal(_ packet: UnsafeMutableRawPointer, length: inout Int, capacity: Int, rolloverCounter: UInt32) -> Bool {
        guard length > 0, capacity >= 0 else { return false }
        let sealed = pkr_srtp_gcm_seal(sealer, packet.assumingMemoryBound(to: UInt8.self), length, capacity, rolloverCounter)
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
    ///   tail overlaps the output, or `capacity` is short of `headLength + tailLength + 16`.
    func seal(
        _ packet: UnsafeMutableRawPointer, headLength: Int, tail: UnsafeRawPointer, tailLength: Int, capacity: Int, rolloverCounter: UInt32
    ) -> Int? {
        guard headLength > 0, tailLength >= 0, capacity >= 0 else { return nil }
        let sealed = pkr_srtp_gcm_seal_split(
            sealer, packet.assumingMemoryBound(to: UInt8.self), headLength, tail.assumingMemoryBound(to: UInt8.self), tailLength, capacity,
            rolloverCounter)
        return sealed >= 0 ? sealed : nil
    }
}
