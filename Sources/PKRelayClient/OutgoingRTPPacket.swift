import RTPWire

/// An RTP packet to send: a minimal 12-byte header (no CSRCs, no extensions) and a payload.
public struct OutgoingRTPPacket: Sendable, Hashable {
    public var marker: Bool
    public var payloadType: UInt8
    public var sequenceNumber: UInt16
    public var timestamp: UInt32
    public var ssrc: UInt32
    public var payload: [UInt8]

    /// Creates a packet from its header fields and payload.
    public init(marker: Bool, payloadType: UInt8, sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32, payload: [UInt8]) {
        self.marker = marker
        self.payloadType = payloadType
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.payload = payload
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
        bytes.append(contentsOf: payload)
        return bytes
    }
}
