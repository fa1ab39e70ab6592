/// An `a=group` attribute (RFC 5888), most often `a=group:BUNDLE 0 1 2` (RFC 9143): the media
/// sections, by mid, that share one transport.
public struct SDPGroup: Sendable, Hashable {
    /// The grouping semantics, such as `BUNDLE` or `LS`.
    public var semantics: String
    /// The mids of the grouped sections, in the order written; for BUNDLE the first is the
    /// tagged section whose transport the others share.
    public var mids: [String]

    /// Creates a group.
    public init(semantics: String, mids: [String]) {
        self.semantics = semantics
        self.mids = mids
    }

    /// Creates a BUNDLE group of `mids`.
    public static func bundle(_ mids: [String]) -> SDPGroup { SDPGroup(semantics: "BUNDLE", mids: mids) }

    /// Whether this is a BUNDLE group.
    public var isBundle: Bool { semantics.uppercased() == "BUNDLE" }

    static let expectedForm = "'<semantics> <mid>...' such as 'BUNDLE 0 1'"

    /// Parses the value of an `a=group` attribute; nil when the semantics are missing.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard let semantics = fields.first else { return nil }
        self.init(semantics: String(semantics), mids: fields.dropFirst().map(String.init))
    }

    /// The value written after `a=group:`.
    var sdpValue: String { ([semantics] + mids).joined(separator: " ") }
}
