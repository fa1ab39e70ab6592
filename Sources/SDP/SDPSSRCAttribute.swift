/// An `a=ssrc` attribute (RFC 5576): a property of one synchronisation source, such as
/// `3735928559 cname:4TOk42mSjXCkVIa6` or `3735928559 msid:stream track`.
public struct SDPSSRCAttribute: Sendable, Hashable {
    /// The synchronisation source.
    public var ssrc: UInt32
    /// The property name: `cname`, `msid`, `mslabel`, `label`, ...
    public var name: String
    /// The property value, when written.
    public var value: String?

    /// Creates the attribute.
    public init(ssrc: UInt32, name: String, value: String? = nil) {
        self.ssrc = ssrc
        self.name = name
        self.value = value
    }

    static let expectedForm = "'<ssrc 0-4294967295> <attribute>[:<value>]'"

    /// Parses the value of an `a=ssrc` attribute.
    init?(sdpValue: Substring) {
        let trimmed = SDPText.trimmed(sdpValue)
        let (number, attribute) = SDPText.splitAtFirstBlank(trimmed)
        guard !attribute.isEmpty, let ssrc = SDPText.unsigned(number, as: UInt32.self) else { return nil }
        let (name, value) = SDPText.splitOnce(SDPText.trimmed(attribute), at: ":")
        guard SDPText.isToken(name) else { return nil }
        self.init(ssrc: ssrc, name: String(name), value: value.map(String.init))
    }

    /// The value written after `a=ssrc:`.
    var sdpValue: String { value.map { "\(ssrc) \(name):\($0)" } ?? "\(ssrc) \(name)" }
}
