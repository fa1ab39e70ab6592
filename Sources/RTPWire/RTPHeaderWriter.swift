/// In-place edits of RTP header fields, for relaying packets with rewritten identifiers,
/// and a writer of minimal headers for packet generators.
///
/// The pointer-based setters trust the caller to pass the start of a packet that has already
/// been parsed (and so is at least 12 bytes long); they do no bounds checking.
public enum RTPHeaderWriter {
    /// Overwrites the sequence number of the packet starting at `packet`.
    public static func setSequenceNumber(_ sequenceNumber: UInt16, in packet: UnsafeMutableRawPointer) {
        packet.storeBytes(of: sequenceNumber.bigEndian, toByteOffset: 2, as: UInt16.self)
    }

    /// Overwrites the media timestamp of the packet starting at `packet`.
    public static func setTimestamp(_ timestamp: UInt32, in packet: UnsafeMutableRawPointer) {
        packet.storeBytes(of: timestamp.bigEndian, toByteOffset: 4, as: UInt32.self)
    }

    /// Overwrites the SSRC of the packet starting at `packet`.
    public static func setSSRC(_ ssrc: UInt32, in packet: UnsafeMutableRawPointer) {
        packet.storeBytes(of: ssrc.bigEndian, toByteOffset: 8, as: UInt32.self)
    }

    /// Overwrites the 7-bit payload type of the packet starting at `packet`, keeping its marker bit.
    public static func setPayloadType(_ payloadType: UInt8, in packet: UnsafeMutableRawPointer) {
        let second = packet.load(fromByteOffset: 1, as: UInt8.self)
        packet.storeBytes(of: (second & 0x80) | (payloadType & 0x7F), toByteOffset: 1, as: UInt8.self)
    }

    /// Sets or clears the marker bit of the packet starting at `packet`, keeping its payload type.
    public static func setMarker(_ marker: Bool, in packet: UnsafeMutableRawPointer) {
        let second = packet.load(fromByteOffset: 1, as: UInt8.self)
        let updated = marker ? second | 0x80 : second & 0x7F
        packet.storeBytes(of: updated, toByteOffset: 1, as: UInt8.self)
    }

    /// Writes a minimal 12-byte RTP header (version 2, no padding, no extension, no CSRCs) at
    /// the start of `buffer`.
    ///
    /// - Returns: the number of bytes written (always 12), or nil when `buffer` is shorter.
    public static func write(
        marker: Bool,
        payloadType: UInt8,
        sequenceNumber: UInt16,
        timestamp: UInt32,
        ssrc: UInt32,
        into buffer: UnsafeMutableRawBufferPointer
    ) -> Int? {
        guard buffer.hasRoom(for: RTPHeader.fixedHeaderLength, at: 0) else { return nil }
        buffer[0] = 0x80
        buffer[1] = (marker ? 0x80 : 0) | (payloadType & 0x7F)
        buffer.writeUInt16(sequenceNumber, at: 2)
        buffer.writeUInt32(timestamp, at: 4)
        buffer.writeUInt32(ssrc, at: 8)
        return RTPHeader.fixedHeaderLength
    }
}
