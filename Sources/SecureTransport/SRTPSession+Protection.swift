import COpenSSLShims
import CSRTP

extension SRTPSession {
    /// Fixed RTP header length before CSRCs and extensions (RFC 3550).
    private static let rtpFixedHeaderLength = 12
    /// RTCP header plus sender SSRC, which SRTCP leaves unencrypted (RFC 3711 section 3.4).
    private static let rtcpUnencryptedPrefixLength = 8
    /// The E flag and SRTCP index word every SRTCP packet carries.
    private static let srtcpIndexLength = 4
    /// libsrtp counts bytes in a C `int`.
    private static let largestLibraryLength = Int(Int32.max)

    /// Encrypts and authenticates an RTP packet in place.
    ///
    /// - Parameters:
    ///   - packet: The RTP packet; the protected packet replaces it.
    ///   - length: The packet's length; on `.ok` it becomes the protected length.
    ///   - capacity: Bytes writable at `packet`; must be at least
    ///     `length + profile.rtpTrailerLength`, otherwise the result is `.malformed`.
    /// - Returns: `.ok`, or why the packet was not protected (then `length` is unchanged).
    public func protectRTP(
        _ packet: UnsafeMutableRawPointer, length: inout Int, capacity: Int
    ) -> SRTPStatus {
        guard length >= Self.rtpFixedHeaderLength,
            length <= Self.largestLibraryLength - rtpTrailerLength,
            capacity >= length + rtpTrailerLength
        else {
            return .malformed
        }
        if rtpSealer != nil {
            // The whole packet is the head: nothing lies elsewhere.
            let plainLength = length
            return protectRTP(packet, headLength: plainLength, tail: UnsafeRawPointer(packet), tailLength: 0, length: &length, capacity: capacity)
        }
        var octets = Int32(truncatingIfNeeded: length)
        let status = srtp_protect(context, packet, &octets)
        return finish(status, octets: octets, length: &length)
    }

    /// Whether ``protectRTP(_:headLength:tail:tailLength:length:capacity:)`` reads the tail
    /// where it lies (RTP on OpenSSL) rather than copying it after the head first.
    public var sealsTailInPlace: Bool { rtpSealer != nil }

    /// Encrypts and authenticates an RTP packet whose head lies at `packet` and whose tail lies
    /// elsewhere: the protected packet is written at `packet`. Gives the same bytes and status as
    /// ``protectRTP(_:length:capacity:)`` on the joined packet; a session with RTP on OpenSSL
    /// encrypts the tail from where it lies instead of copying it first.
    ///
    /// - Parameters:
    ///   - packet: The packet's head: its whole RTP header (CSRCs and extension included) and
    ///     perhaps the start of its payload.
    ///   - headLength: The head's length.
    ///   - tail: The rest of the packet; must not overlap the `capacity` bytes at `packet`.
    ///   - tailLength: The rest's length.
    ///   - length: On `.ok`, the protected length.
    ///   - capacity: Bytes writable at `packet`; must be at least
    ///     `headLength + tailLength + profile.rtpTrailerLength`, otherwise the result is `.malformed`.
    /// - Returns: `.ok`, or why the packet was not protected (then `length` is unchanged).
    public func protectRTP(
        _ packet: UnsafeMutableRawPointer, headLength: Int, tail: UnsafeRawPointer, tailLength: Int, length: inout Int, capacity: Int
    ) -> SRTPStatus {
        guard headLength >= Self.rtpFixedHeaderLength, tailLength >= 0, headLength <= Self.largestLibraryLength - rtpTrailerLength - tailLength,
            capacity >= headLength + tailLength + rtpTrailerLength
        else {
            return .malformed
        }
        guard let rtpSealContext else {
            (packet + headLength).copyMemory(from: tail, byteCount: tailLength)
            var joined = headLength + tailLength
            let status = protectRTP(packet, length: &joined, capacity: capacity)
            if status == .ok { length = joined }
            return status
        }
        let ssrc = packet.loadUnaligned(fromByteOffset: 8, as: UInt32.self).bigEndian
        let sequenceNumber = packet.loadUnaligned(fromByteOffset: 2, as: UInt16.self).bigEndian
        guard let index = sendIndices.index(ssrc: ssrc, sequenceNumber: sequenceNumber) else { return .replayed }
        // What SRTPRTPSealer.seal does, on its context directly; the guard above has checked the lengths.
        let sealed = pkr_srtp_rtp_seal_split(
            rtpSealContext, packet.assumingMemoryBound(to: UInt8.self), headLength, tail.assumingMemoryBound(to: UInt8.self), tailLength, capacity,
            UInt32(truncatingIfNeeded: index >> 16))
        guard sealed >= 0 else { return .malformed }
        length = sealed
        return .ok
    }

    /// Verifies and decrypts an SRTP packet in place.
    ///
    /// - Parameters:
    ///   - packet: The SRTP packet; on `.ok` the plain RTP packet replaces it.
    ///   - length: The packet's length; on `.ok` it becomes the RTP packet's length.
    /// - Returns: `.ok`, `.authenticationFailed`, `.replayed`, `.malformed` or `.failed`;
    ///   on anything but `.ok` the buffer's contents are unspecified and `length` is unchanged.
    public func unprotectRTP(_ packet: UnsafeMutableRawPointer, length: inout Int) -> SRTPStatus {
        guard length >= Self.rtpFixedHeaderLength + rtpTrailerLength,
            length <= Self.largestLibraryLength
        else {
            return .malformed
        }
        if let rtpOpener { return openRTP(packet, length: &length, with: rtpOpener) }
        var octets = Int32(truncatingIfNeeded: length)
        let status = srtp_unprotect(context, packet, &octets)
        return finish(status, octets: octets, length: &length)
    }

    /// Encrypts and authenticates a compound RTCP packet in place.
    ///
    /// - Parameters:
    ///   - packet: The RTCP packet; the SRTCP packet replaces it.
    ///   - length: The packet's length; on `.ok` it becomes the protected length.
    ///   - capacity: Bytes writable at `packet`; must be at least
    ///     `length + profile.rtcpTrailerLength`, otherwise the result is `.malformed`.
    /// - Returns: `.ok`, or why the packet was not protected (then `length` is unchanged).
    public func protectRTCP(
        _ packet: UnsafeMutableRawPointer, length: inout Int, capacity: Int
    ) -> SRTPStatus {
        guard length >= Self.rtcpUnencryptedPrefixLength,
            length <= Self.largestLibraryLength - rtcpTrailerLength,
            capacity >= length + rtcpTrailerLength
        else {
            return .malformed
        }
        if let rtcpTransform { return sealRTCP(packet, length: &length, capacity: capacity, with: rtcpTransform) }
        var octets = Int32(truncatingIfNeeded: length)
        let status = srtp_protect_rtcp(context, packet, &octets)
        return finish(status, octets: octets, length: &length)
    }

    /// Verifies and decrypts an SRTCP packet in place.
    ///
    /// - Parameters:
    ///   - packet: The SRTCP packet; on `.ok` the plain RTCP packet replaces it.
    ///   - length: The packet's length; on `.ok` it becomes the RTCP packet's length.
    /// - Returns: `.ok`, `.authenticationFailed`, `.replayed`, `.malformed` or `.failed`;
    ///   on anything but `.ok` the buffer's contents are unspecified and `length` is unchanged.
    public func unprotectRTCP(_ packet: UnsafeMutableRawPointer, length: inout Int) -> SRTPStatus {
        guard length >= Self.rtcpUnencryptedPrefixLength + Self.srtcpIndexLength + rtpTrailerLength,
            length <= Self.largestLibraryLength
        else {
            return .malformed
        }
        if let rtcpTransform { return openRTCP(packet, length: &length, with: rtcpTransform) }
        var octets = Int32(truncatingIfNeeded: length)
        let status = srtp_unprotect_rtcp(context, packet, &octets)
        return finish(status, octets: octets, length: &length)
    }

    /// `unprotectRTP` on OpenSSL, in libsrtp's order and with its statuses: the header must fit
    /// the packet, then the replay window is checked (a new SSRC has none yet), then the header
    /// and the tag must fit, then the tag must verify; only an authentic packet moves the window.
    private func openRTP(_ packet: UnsafeMutableRawPointer, length: inout Int, with receiver: SRTPRTPOpener) -> SRTPStatus {
        let headerLength = pkr_srtp_header_length(packet.assumingMemoryBound(to: UInt8.self), length)
        guard headerLength > 0 else { return .malformed }
        let ssrc = packet.loadUnaligned(fromByteOffset: 8, as: UInt32.self).bigEndian
        let sequenceNumber = packet.loadUnaligned(fromByteOffset: 2, as: UInt16.self).bigEndian
        let trailerLength = rtpTrailerLength
        func open(_ rolloverCounter: UInt32) -> SRTPStatus {
            guard length - headerLength >= trailerLength else { return .malformed }
            return receiver.open(packet, length: &length, rolloverCounter: rolloverCounter)
        }
        if let slot = receiveWindows.index(forKey: ssrc) {
            return receiveWindows.values[slot].admit(sequenceNumber, open: open)
        }
        // A new SSRC has no window yet: its first packet has rollover counter 0.
        let status = open(0)
        if status == .ok { receiveWindows[ssrc] = SRTPReceiveWindow(firstIndex: UInt64(sequenceNumber), size: replayWindowLength) }
        return status
    }

    /// `protectRTCP` on OpenSSL, numbered as libsrtp numbers: each sender SSRC's packets from
    /// index 1 on, until the 31-bit index would wrap, when the key has expired.
    private func sealRTCP(_ packet: UnsafeMutableRawPointer, length: inout Int, capacity: Int, with transform: SRTCPTransform) -> SRTPStatus {
        let ssrc = packet.loadUnaligned(fromByteOffset: 4, as: UInt32.self).bigEndian
        let slot = rtcpSendIndices.index(forKey: ssrc)
        let previous = slot.map { rtcpSendIndices.values[$0] } ?? 0
        guard previous < Self.largestSRTCPIndex else { return SRTPStatus(libraryStatus: srtp_err_status_key_expired) }
        guard let sealed = transform.seal(packet, length: length, capacity: capacity, index: previous + 1) else { return .malformed }
        if let slot { rtcpSendIndices.values[slot] = previous + 1 } else { rtcpSendIndices[ssrc] = 1 }
        length = sealed
        return .ok
    }

    /// `unprotectRTCP` on OpenSSL, in libsrtp's order and with its statuses: an AES-CM packet
    /// without the E flag cannot be checked (the session always encrypts; a GCM one is taken as
    /// sent unencrypted, RFC 7714 section 9.3), then the replay window is checked (a new SSRC has
    /// none yet), then the tag; only an authentic packet moves the window.
    private func openRTCP(_ packet: UnsafeMutableRawPointer, length: inout Int, with transform: SRTCPTransform) -> SRTPStatus {
        let word = packet.loadUnaligned(fromByteOffset: length - transform.indexOffsetFromEnd, as: UInt32.self).bigEndian
        if profile == .aesCM128HMACSHA1_80, word & 0x8000_0000 == 0 { return SRTPStatus(libraryStatus: srtp_err_status_cant_check) }
        let index = word & Self.largestSRTCPIndex
        let ssrc = packet.loadUnaligned(fromByteOffset: 4, as: UInt32.self).bigEndian
        let slot = rtcpWindows.index(forKey: ssrc)
        if let slot {
            let status = rtcpWindows.values[slot].check(index)
            guard status == .ok else { return status }
        }
        let status = transform.open(packet, length: &length)
        guard status == .ok else { return status }
        if let slot {
            rtcpWindows.values[slot].add(index)
        } else {
            var window = SRTCPReplayWindow()
            window.add(index)
            rtcpWindows[ssrc] = window
        }
        return .ok
    }

    /// The largest SRTCP index: 31 bits.
    private static let largestSRTCPIndex: UInt32 = 0x7FFF_FFFF

    /// Publishes libsrtp's new length only on success, so callers never see a half-updated one.
    @inline(__always)
    private func finish(_ status: srtp_err_status_t, octets: Int32, length: inout Int) -> SRTPStatus {
        guard status.rawValue == srtp_err_status_ok.rawValue else {
            return SRTPStatus(libraryStatus: status)
        }
        length = Int(octets)
        return .ok
    }
}
