/// Which way the packets handled by an ``SRTPSession`` travel.
public enum SRTPDirection: Sendable {
    /// The session protects packets this relay sends.
    case sender
    /// The session unprotects packets this relay receives.
    case receiver
}
