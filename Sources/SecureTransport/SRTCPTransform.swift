import COpenSSLShims

/// SRTCP on OpenSSL (RFC 3711 section 3.4; for AEAD_AES_128_GCM, RFC 7714 section 9) for one
/// direction, with the cipher context kept between packets. Packets are always encrypted (the E
/// flag set); the caller numbers what it seals and keeps the replay windows of what it opens.
///
/// Not thread-safe and not `Sendable`: one thread uses it. The per-packet methods neither lock
/// nor allocate.
final class SRTCPTransform {
    private let context: OpaquePointer
    /// Where the E flag and index word starts, counted back from the end of an SRTCP packet:
    /// GCM puts it after the tag, AES-CM before.
    let indexOffsetFromEnd: Int

    /// Creates the transform from SDES or DTLS-SRTP keying material (the 16-byte master key
    /// followed by the profile's master salt), to seal (`sealing`) or to open.
    init(profile: SRTPProfile, keyingMaterial: [UInt8], sealing: Bool) throws(SRTPSessionError) {
        context = try SRTPRTPContext.create(profile: profile, keyingMaterial: keyingMaterial, sealing: sealing, rtcp: true)
        indexOffsetFromEnd = profile == .aeadAES128GCM ? 4 : profile.rtcpTrailerLength
    }

    deinit {
        pkr_srtp_rtp_destroy(context)
    }

    /// Encrypts a compound RTCP packet in place under `index` and appends the trailer; returns
    /// the SRTCP packet's length, or nil when `capacity` cannot take the trailer.
    func seal(_ packet: UnsafeMutableRawPointer, length: Int, capacity: Int, index: UInt32) -> Int? {
        guard length >= 0, capacity >= 0 else { return nil }
        let sealed = pkr_srtcp_seal(context, packet.assumingMemoryBound(to: UInt8.self), length, capacity, index)
        return sealed >= 0 ? sealed : nil
    }

    /// Verifies and decrypts an SRTCP packet in place; on `.ok`, `length` becomes the RTCP
    /// packet's. The caller has checked its E flag and index.
    func open(_ packet: UnsafeMutableRawPointer, length: inout Int) -> SRTPStatus {
        guard length >= 0 else { return .malformed }
        return .opening(pkr_srtcp_open(context, packet.assumingMemoryBound(to: UInt8.self), length), length: &length)
    }
}
