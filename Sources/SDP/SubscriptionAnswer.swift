/// What a subscriber's answer to a relay offer says.
public struct SubscriptionAnswer: Sendable, Hashable {
    /// The mids of the sections the client accepted to receive (port not 0, `recvonly` or
    /// `sendrecv`), in `m=` line order.
    public var acceptedMids: [String]
    /// The mids of the active sections the client rejected or will not receive.
    public var declinedMids: [String]
    /// The accepted sections whose answer kept the offered rtx payload type: the relay
    /// retransmits there on the RFC 4588 stream the offer announced.
    public var retransmissionMids: [String] = []
    /// The id of the transport-wide sequence number extension when the client kept it in an
    /// accepted section: the relay stamps what it sends and reads the client's `transport-cc`
    /// feedback. Nil when the client left it out.
    public var transportWideSequenceExtensionId: UInt8?
    /// The client's transport parameters, nil when it accepted no section (there is then no
    /// transport to set up).
    public var clientTransport: ClientTransportParameters?

    /// Creates the record.
    public init(acceptedMids: [String], declinedMids: [String], clientTransport: ClientTransportParameters?) {
        self.acceptedMids = acceptedMids
        self.declinedMids = declinedMids
        self.clientTransport = clientTransport
    }
}
