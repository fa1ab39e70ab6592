/// One name/value parameter, as found in `a=fmtp` (`packetization-mode=1`), in `a=rid`
/// restrictions (`max-width=1280`) and in candidate extensions (`generation 0`).
public struct SDPParameter: Sendable, Hashable {
    /// The parameter name, as written.
    public var name: String
    /// The value, or nil for a parameter written without one.
    public var value: String?

    /// Creates a parameter.
    public init(name: String, value: String? = nil) {
        self.name = name
        self.value = value
    }

    /// Parses a `;`-separated list of `name=value` items; blank items are skipped and items
    /// without `=` become parameters without a value.
    static func list(_ text: Substring) -> [SDPParameter] {
        SDPText.split(text, at: ";").compactMap { item in
            let trimmed = SDPText.trimmed(item)
            guard !trimmed.isEmpty else { return nil }
            let (name, value) = SDPText.splitOnce(trimmed, at: "=")
            return SDPParameter(
                name: String(SDPText.trimmed(name)),
                value: value.map { String(SDPText.trimmed($0)) })
        }
    }

    /// Writes parameters as a `;`-separated list of `name=value` items.
    static func listValue(_ parameters: [SDPParameter]) -> String {
        parameters.map { parameter in
            parameter.value.map { "\(parameter.name)=\($0)" } ?? parameter.name
        }.joined(separator: ";")
    }
}
