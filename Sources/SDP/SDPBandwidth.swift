/// A `b=` line, such as `b=AS:2500` (kilobits per second) or `b=TIAS:2500000` (bits per
/// second).
public struct SDPBandwidth: Sendable, Hashable {
    /// The bandwidth type, `AS`, `TIAS`, `CT`, ...
    public var type: String
    /// The amount, in the unit the type defines.
    public var value: UInt64

    /// Creates a bandwidth line.
    public init(type: String, value: UInt64) {
        self.type = type
        self.value = value
    }

    /// Parses the value of a `b=` line; nil unless it is `<type>:<number>`.
    init?(sdpValue: Substring) {
        let (type, amount) = SDPText.splitOnce(SDPText.trimmed(sdpValue), at: ":")
        guard SDPText.isToken(type), let amount, let value = SDPText.unsigned(amount, as: UInt64.self) else {
            return nil
        }
        self.init(type: String(type), value: value)
    }

    /// The value written after `b=`.
    var sdpValue: String { "\(type):\(value)" }
}
