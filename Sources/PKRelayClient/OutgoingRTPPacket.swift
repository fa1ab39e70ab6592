import RTPWire

/// An RTP packet to send: a minimal 12-byte header (no CSRCs), optional RFC 8285 one-byte
/// header-extension elements, and a payload.
public struct OutgoingRTPPacket: Sendable, Hashable {
    public var marker: Bool
    public var payloadType: UInt8
    public var sequenceNumber: UInt16
    public var timestamp: UInt32
    public var ssrc: UInt32
    public var payload: [UInt8]
    /// One-byte-form extension elements (each an `id << 4 | length - 1` byte and its data),
    /// sent in a 0xBEDE block padded to whole words; empty for no extension.
    public var headerExtension: [UInt8]

    /// Creates a packet from its header fields and payload.
    public init(marker: Bool, payloadType: UInt8, sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32, payload: [UInt8], headerExtension: [UInt8] = []) {
        self.marker = marker
        self.payloadType = payloadType
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.payload = payload
        self.headerExtension = headerExtension
    }

    /// The one-byte element of an RFC 6464 audio level: `level` in -dBov (0-127), with the voice-activity flag.
    public static func audioLevelElement(id: UInt8, level: UInt8, voiceActivity: Bool) -> [UInt8] {
        [id << 4, (voiceActivity ? 0x80 : 0) | min(level, 127)]
    }

    /// The packet as plain RTP bytes, with `trailerCapacity` spare bytes reserved (not counted)
    /// for the SRTP tag that protecting it appends.
    public func serialized(reservingCapacity trailerCapacity: Int = 0) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: RTPHeader.fixedHeaderLength)
        bytes.reserveCapacity(RTPHeader.fixedHeaderLength + payload.count + trailerCapacity)
        bytes.withUnsafeMutableBytes { buffer in
            _ = RTPHeaderWriter.write(
                marker: marker, payloadType: payloadType, sequenceNumber: sequenceNumber,
                timestamp: timestamp, ssrc: ssrc, into: buffer)
        }
        if !headerExtension.isEmpty {
            bytes[0] |= 0x10
            let words = (headerExtension.count + 3) / 4
            bytes += [0xBE, 0xDE, UInt8(truncatingIfNeeded: words >> 8), UInt8(truncatingIfNeeded: words)]
            bytes += headerExtension
            bytes += [UInt8](repeating: 0, count: words * 4 - headerExtension.count)
        }
        bytes.append(contentsOf: payload)
        return bytes
    }
}
