/// An `a=rid` attribute (RFC 8851): one RTP stream identifier and its restrictions, such as
/// `h send` or `l send pt=96;max-width=320;max-height=180`.
public struct SDPRID: Sendable, Hashable {
    /// The identifier, carried in the rtp-stream-id header extension.
    public var id: String
    /// Whether the writer sends or receives the stream.
    public var direction: SDPRIDDirection
    /// The payload types the stream is restricted to (`pt=`), empty for any.
    public var payloadTypes: [UInt8]
    /// The other restrictions (`max-width`, `max-height`, `max-fps`, `max-br`, ...), in the
    /// order written.
    public var restrictions: [SDPParameter]

    /// Creates the attribute.
    public init(id: String, direction: SDPRIDDirection, payloadTypes: [UInt8] = [], restrictions: [SDPParameter] = []) {
        self.id = id
        self.direction = direction
        self.payloadTypes = payloadTypes
        self.restrictions = restrictions
    }

    /// Whether `text` is a valid rid: letters, digits, `-` and `_` (RFC 8851 section 10).
    static func isValidIdentifier(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F
            }
    }

    static let expectedForm = "'<rid of letters, digits, - or _> send|recv [pt=<types>;<restriction>=<value>...]'"

    /// Parses the value of an `a=rid` attribute.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard fields.count >= 2, Self.isValidIdentifier(fields[0]),
            let direction = SDPRIDDirection(rawValue: String(fields[1]))
        else { return nil }
        var payloadTypes: [UInt8] = []
        var restrictions: [SDPParameter] = []
        for parameter in SDPParameter.list(Substring(fields.dropFirst(2).joined(separator: " "))) {
            if parameter.name == "pt" {
                for item in SDPText.split(Substring(parameter.value ?? ""), at: ",") {
                    guard let payloadType = SDPText.payloadType(SDPText.trimmed(item)) else { return nil }
                    payloadTypes.append(payloadType)
                }
            } else {
                restrictions.append(parameter)
            }
        }
        self.init(id: String(fields[0]), direction: direction, payloadTypes: payloadTypes, restrictions: restrictions)
    }

    /// The value written after `a=rid:`.
    var sdpValue: String {
        var parameters = restrictions
        if !payloadTypes.isEmpty {
            parameters.insert(
                SDPParameter(name: "pt", value: payloadTypes.map(String.init).joined(separator: ",")), at: 0)
        }
        let base = "\(id) \(direction.rawValue)"
        return parameters.isEmpty ? base : "\(base) \(SDPParameter.listValue(parameters))"
    }
}
