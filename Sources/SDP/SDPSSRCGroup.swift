/// An `a=ssrc-group` attribute (RFC 5576): synchronisation sources that belong together, such
/// as `FID <media> <retransmission>` (RFC 4588) or `SIM <low> <mid> <high>`.
public struct SDPSSRCGroup: Sendable, Hashable {
    /// The semantics: `FID`, `SIM`, `FEC-FR`, ...
    public var semantics: String
    /// The sources in the order written.
    public var ssrcs: [UInt32]

    /// Creates the attribute.
    public init(semantics: String, ssrcs: [UInt32]) {
        self.semantics = semantics
        self.ssrcs = ssrcs
    }

    static let expectedForm = "'<semantics> <ssrc>...' such as 'FID 1111 2222'"

    /// Parses the value of an `a=ssrc-group` attribute.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard fields.count >= 2, SDPText.isToken(fields[0]) else { return nil }
        var ssrcs: [UInt32] = []
        for field in fields.dropFirst() {
            guard let ssrc = SDPText.unsigned(field, as: UInt32.self) else { return nil }
            ssrcs.append(ssrc)
        }
        self.init(semantics: String(fields[0]), ssrcs: ssrcs)
    }

    /// The value written after `a=ssrc-group:`.
    var sdpValue: String { ([semantics] + ssrcs.map(String.init)).joined(separator: " ") }
}
