/// Which side of the DTLS handshake an endpoint plays (SDP `a=setup`, RFC 5763).
public enum DTLSRole: Sendable, Hashable {
    /// Sends the ClientHello (`a=setup:active`).
    case client
    /// Answers the ClientHello (`a=setup:passive`).
    case server
}
