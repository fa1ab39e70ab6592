public import SecureTransport

/// One datagram a ``MediaCoreFuzzRig``'s core sent, as its receiver reads it.
@_spi(Fuzzing) public struct MediaFuzzDelivery: Sendable, Equatable {
    /// The transport it left on: 1 is the publisher, 2... the subscribers.
    public var transport: Int
    /// Its bytes, unprotected when the transport is SRTP and unprotecting succeeded (for a
    /// repeat, as the first copy opened).
    public var bytes: [UInt8]
    /// The receiver's verdict on an SRTP datagram; nil on a plain transport.
    public var status: SRTPStatus?
    /// Whether an SRTP RTP datagram is byte for byte one sent before under its SSRC and sequence
    /// number (a NACK answered on the sink's own SSRC): the receiver calls it a replay, and as long
    /// as the bytes are the same, the index never sealed two plaintexts.
    public var repeatsEarlierDatagram: Bool

    /// Whether `bytes` are RTCP rather than RTP: the second byte is an RTCP packet type, 192-223
    /// (RFC 5761), where RTP has its marker and payload type.
    public static func isRTCP(_ bytes: [UInt8]) -> Bool {
        bytes.count > 1 && (192...223).contains(bytes[1])
    }

    /// The network-order 32-bit word at `offset` of `bytes`, which holds it.
    public static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    public var isRTCP: Bool { Self.isRTCP(bytes) }
    /// An RTP datagram's SSRC (which travels in the clear under SRTP too).
    public var ssrc: UInt32 { Self.word(bytes, at: 8) }
    /// An RTP datagram's sequence number.
    public var sequenceNumber: UInt16 { UInt16(bytes[2]) << 8 | UInt16(bytes[3]) }
}
