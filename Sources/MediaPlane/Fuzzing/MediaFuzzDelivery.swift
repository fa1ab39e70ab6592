import SecureTransport

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
}
