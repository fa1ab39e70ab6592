/// The ICE and DTLS attributes that may be written at session level, media level or both:
/// `a=ice-ufrag`, `a=ice-pwd`, `a=ice-options`, `a=fingerprint` and `a=setup`.
public struct SDPTransportAttributes: Sendable, Hashable {
    /// The ICE username fragment.
    public var iceUsernameFragment: String?
    /// The ICE password.
    public var icePassword: String?
    /// The ICE options, such as `trickle` or `renomination`.
    public var iceOptions: [String]
    /// The certificate fingerprints; several when the writer offers more than one hash.
    public var fingerprints: [SDPFingerprint]
    /// The DTLS role.
    public var setup: SDPSetupRole?

    /// Creates the attributes; by default none is present.
    public init(
        iceUsernameFragment: String? = nil, icePassword: String? = nil, iceOptions: [String] = [],
        fingerprints: [SDPFingerprint] = [], setup: SDPSetupRole? = nil
    ) {
        self.iceUsernameFragment = iceUsernameFragment
        self.icePassword = icePassword
        self.iceOptions = iceOptions
        self.fingerprints = fingerprints
        self.setup = setup
    }

    /// These media-level attributes completed by the session-level ones they override:
    /// each attribute present here wins, each absent one is taken from `sessionLevel`.
    public func overriding(_ sessionLevel: SDPTransportAttributes) -> SDPTransportAttributes {
        SDPTransportAttributes(
            iceUsernameFragment: iceUsernameFragment ?? sessionLevel.iceUsernameFragment,
            icePassword: icePassword ?? sessionLevel.icePassword,
            iceOptions: iceOptions.isEmpty ? sessionLevel.iceOptions : iceOptions,
            fingerprints: fingerprints.isEmpty ? sessionLevel.fingerprints : fingerprints,
            setup: setup ?? sessionLevel.setup)
    }

    /// The attribute lines, without `a=`, in the order they are written.
    var attributeLines: [String] {
        var lines: [String] = []
        if let iceUsernameFragment { lines.append("ice-ufrag:\(iceUsernameFragment)") }
        if let icePassword { lines.append("ice-pwd:\(icePassword)") }
        if !iceOptions.isEmpty { lines.append("ice-options:\(iceOptions.joined(separator: " "))") }
        lines += fingerprints.map { "fingerprint:\($0.sdpValue)" }
        if let setup { lines.append("setup:\(setup.rawValue)") }
        return lines
    }
}
