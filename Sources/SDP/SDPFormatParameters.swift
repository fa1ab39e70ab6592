/// An `a=fmtp` attribute: the format-specific parameters of one payload type, such as
/// `111 minptime=10;useinbandfec=1` or `97 apt=96`.
public struct SDPFormatParameters: Sendable, Hashable {
    /// The payload type the parameters apply to.
    public var payloadType: UInt8
    /// The parameter text as written after the payload type. It is usually `name=value`
    /// pairs separated by `;`, but some formats (telephone-event's `0-15`) use other syntax,
    /// so the text is kept whole.
    public var value: String

    /// Creates the attribute.
    public init(payloadType: UInt8, value: String) {
        self.payloadType = payloadType
        self.value = value
    }

    /// Creates the attribute from `name=value` parameters.
    public init(payloadType: UInt8, parameters: [SDPParameter]) {
        self.init(payloadType: payloadType, value: SDPParameter.listValue(parameters))
    }

    /// The text read as `;`-separated `name=value` items.
    public var parameters: [SDPParameter] { SDPParameter.list(Substring(value)) }

    /// The value of the first parameter called `name` (compared without regard to case), or
    /// nil when there is none or it has no value.
    public func parameter(_ name: String) -> String? {
        let wanted = name.lowercased()
        return parameters.first { $0.name.lowercased() == wanted }?.value
    }

    static let expectedForm = "'<payload type 0-127> <parameters>'"

    /// Parses the value of an `a=fmtp` attribute. The format must be a payload type; the
    /// parameters may be empty.
    init?(sdpValue: Substring) {
        let trimmed = SDPText.trimmed(sdpValue)
        let (format, parameters) = SDPText.splitAtFirstBlank(trimmed)
        guard let payloadType = SDPText.payloadType(format) else { return nil }
        self.init(payloadType: payloadType, value: String(SDPText.trimmed(parameters)))
    }

    /// The value written after `a=fmtp:`.
    var sdpValue: String { value.isEmpty ? "\(payloadType)" : "\(payloadType) \(value)" }
}
