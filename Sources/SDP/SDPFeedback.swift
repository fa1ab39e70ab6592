/// An `a=rtcp-fb` attribute (RFC 4585): an RTCP feedback message a payload type supports,
/// such as `96 nack pli`, or every payload type with `* ccm fir`.
public struct SDPFeedback: Sendable, Hashable {
    /// The payload type, or nil for `*` (every payload type of the section).
    public var payloadType: UInt8?
    /// The feedback type: `nack`, `ccm`, `goog-remb`, `transport-cc`, ...
    public var type: String
    /// The subtype and any further parameters, such as `pli` or `fir`, when written.
    public var parameter: String?

    /// Creates the attribute.
    public init(payloadType: UInt8?, type: String, parameter: String? = nil) {
        self.payloadType = payloadType
        self.type = type
        self.parameter = parameter
    }

    /// The feedback as written after the payload type: `nack`, `nack pli`, `ccm fir`.
    public var feedbackValue: String { parameter.map { "\(type) \($0)" } ?? type }

    /// Whether the feedback applies to `payloadType`, directly or through `*`.
    public func applies(to payloadType: UInt8) -> Bool { self.payloadType.map { $0 == payloadType } ?? true }

    static let expectedForm = "'<payload type 0-127 or *> <feedback type> [<parameter>]'"

    /// Parses the value of an `a=rtcp-fb` attribute.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard fields.count >= 2 else { return nil }
        let payloadType: UInt8?
        if fields[0] == "*" {
            payloadType = nil
        } else if let number = SDPText.payloadType(fields[0]) {
            payloadType = number
        } else {
            return nil
        }
        self.init(
            payloadType: payloadType, type: String(fields[1]),
            parameter: fields.count > 2 ? fields[2...].joined(separator: " ") : nil)
    }

    /// The value written after `a=rtcp-fb:`.
    var sdpValue: String { "\(payloadType.map(String.init) ?? "*") \(feedbackValue)" }
}
