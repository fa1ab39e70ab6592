public import RTPWire

/// Something the owner of an ICE-lite agent has to act on.
public enum ICEAgentEvent: Sendable, Hashable {
    /// The controlling agent nominated a pair from this address: send media there from now on.
    case selectedAddressChanged(STUNAddress)
    /// The agent gave up: stop sending and tear the transport down.
    case expired(ICEExpiryReason)
}
