/// Where a ``DTLSEndpoint`` is in its life.
public enum DTLSState: Sendable {
    /// The handshake is under way (or, for a server, waiting for the ClientHello).
    case connecting
    /// The handshake completed, the peer's certificate matched an expected fingerprint and
    /// an SRTP profile was negotiated; these are the keys.
    case connected(DTLSSRTPKeys)
    /// The association failed and is over; datagrams are ignored from now on.
    case failed(DTLSFailure)
    /// The association was closed with close_notify, by either side (a peer's close_notify
    /// is answered with one); datagrams are ignored.
    case closed

    /// The keys, when connected.
    public var keys: DTLSSRTPKeys? {
        if case .connected(let keys) = self { keys } else { nil }
    }

    /// The failure, when failed.
    public var failure: DTLSFailure? {
        if case .failed(let failure) = self { failure } else { nil }
    }

    /// Whether the endpoint is done: failed or closed.
    public var isFinished: Bool {
        switch self {
        case .connecting, .connected: false
        case .failed, .closed: true
        }
    }
}
