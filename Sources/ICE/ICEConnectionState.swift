/// Where an ICE-lite agent is in its life.
public enum ICEConnectionState: Sendable, Hashable {
    /// No valid connectivity check has arrived yet.
    case new
    /// Valid checks have arrived, but the controlling agent has not nominated a pair.
    case checking
    /// A pair is nominated and the peer's consent is fresh: media may flow to the selected address.
    case connected
    /// The agent gave up; this is final, and a new session needs new credentials (an ICE restart).
    case expired(ICEExpiryReason)
}
