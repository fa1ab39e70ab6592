import SecureTransport

/// Array-based wrappers over the pointer API, so tests read as data in, data out.
extension SRTPSession {
    /// Protects `packet` as RTP in a buffer with room for the profile's largest trailer.
    func protectRTP(_ packet: [UInt8]) -> (status: SRTPStatus, packet: [UInt8]) {
        transform(packet, spare: profile.maximumTrailerLength) { pointer, length, capacity in
            protectRTP(pointer, length: &length, capacity: capacity)
        }
    }

    /// Unprotects `packet` as SRTP.
    func unprotectRTP(_ packet: [UInt8]) -> (status: SRTPStatus, packet: [UInt8]) {
        transform(packet, spare: 0) { pointer, length, _ in
            unprotectRTP(pointer, length: &length)
        }
    }

    /// Protects `packet` as RTCP in a buffer with room for the profile's largest trailer.
    func protectRTCP(_ packet: [UInt8]) -> (status: SRTPStatus, packet: [UInt8]) {
        transform(packet, spare: profile.maximumTrailerLength) { pointer, length, capacity in
            protectRTCP(pointer, length: &length, capacity: capacity)
        }
    }

    /// Unprotects `packet` as SRTCP.
    func unprotectRTCP(_ packet: [UInt8]) -> (status: SRTPStatus, packet: [UInt8]) {
        transform(packet, spare: 0) { pointer, length, _ in
            unprotectRTCP(pointer, length: &length)
        }
    }

    /// Copies `packet` into a buffer `spare` bytes larger, runs `body` on it and returns
    /// the status with the bytes up to the resulting length.
    private func transform(
        _ packet: [UInt8], spare: Int,
        _ body: (UnsafeMutableRawPointer, inout Int, Int) -> SRTPStatus
    ) -> (status: SRTPStatus, packet: [UInt8]) {
        // Never hand libsrtp a zero-sized buffer: it may read the header before checking.
        var buffer = packet + [UInt8](repeating: 0, count: max(spare, 1))
        var length = packet.count
        let capacity = packet.count + spare
        let status = buffer.withUnsafeMutableBytes { bytes in
            body(bytes.baseAddress!, &length, capacity)
        }
        return (status, Array(buffer.prefix(length)))
    }
}
