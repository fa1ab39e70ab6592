/// The `a=setup` attribute (RFC 4145, RFC 8842): which side opens the DTLS association.
public enum SDPSetupRole: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The writer will be the DTLS client (it sends the ClientHello).
    case active
    /// The writer will be the DTLS server.
    case passive
    /// The writer lets the answerer choose; only valid in offers.
    case actpass
    /// The writer does not want a connection now.
    case holdconn

    /// The role as written after `a=setup:`.
    public var description: String { rawValue }
}
