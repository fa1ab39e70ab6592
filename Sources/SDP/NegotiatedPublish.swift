/// What a publish negotiation settled: the accepted sections, the rejected ones and the
/// client's transport parameters.
public struct NegotiatedPublish: Sendable, Hashable {
    /// The accepted sections in `m=` line order.
    public var sections: [NegotiatedPublishSection]
    /// The sections answered with port 0, and why.
    public var rejectedSections: [RejectedSection]
    /// The client's ICE credentials, fingerprints and DTLS role.
    public var clientTransport: ClientTransportParameters

    /// Creates the record.
    public init(sections: [NegotiatedPublishSection], rejectedSections: [RejectedSection], clientTransport: ClientTransportParameters) {
        self.sections = sections
        self.rejectedSections = rejectedSections
        self.clientTransport = clientTransport
    }

    /// The accepted section with mid `mid`.
    public func section(mid: String) -> NegotiatedPublishSection? {
        sections.first { $0.mid == mid }
    }
}
