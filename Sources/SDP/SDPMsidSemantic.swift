/// The session-level `a=msid-semantic` attribute Chromium and Firefox still write, such as
/// `a=msid-semantic: WMS` or `a=msid-semantic:WMS *`.
public struct SDPMsidSemantic: Sendable, Hashable {
    /// The semantic token, `WMS` in practice.
    public var semantic: String
    /// The stream identifiers listed after the token, or `*` for all.
    public var identifiers: [String]

    /// Creates the attribute.
    public init(semantic: String = "WMS", identifiers: [String] = []) {
        self.semantic = semantic
        self.identifiers = identifiers
    }

    /// Parses the attribute value, tolerating the space browsers put after the colon.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard let semantic = fields.first else { return nil }
        self.init(semantic: String(semantic), identifiers: fields.dropFirst().map(String.init))
    }

    /// The value written after `a=msid-semantic:`.
    var sdpValue: String { ([semantic] + identifiers).joined(separator: " ") }
}
