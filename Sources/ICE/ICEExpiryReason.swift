/// Why a transport's ICE agent gave up.
public enum ICEExpiryReason: Sendable, Hashable {
    /// The peer was connected but stopped sending valid checks from the selected address
    /// for longer than the consent timeout (RFC 7675).
    case consentLapsed
    /// No pair was ever nominated within the connect timeout.
    case neverConnected
}
