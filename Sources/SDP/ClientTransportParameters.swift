/// The client's ICE credentials and DTLS parameters, read from its offer or answer.
public struct ClientTransportParameters: Sendable, Hashable {
    /// The client's ICE username fragment, which the relay expects in connectivity checks.
    public var iceUsernameFragment: String
    /// The client's ICE password.
    public var icePassword: String
    /// The fingerprints the client's DTLS certificate must match (any one of them).
    public var fingerprints: [SDPFingerprint]
    /// The client's `a=setup`, or nil when it wrote none (which RFC 4145 reads as `active`).
    public var setup: SDPSetupRole?

    /// Creates the parameters.
    public init(iceUsernameFragment: String, icePassword: String, fingerprints: [SDPFingerprint], setup: SDPSetupRole?) {
        self.iceUsernameFragment = iceUsernameFragment
        self.icePassword = icePassword
        self.fingerprints = fingerprints
        self.setup = setup
    }
}
