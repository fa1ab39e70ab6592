/// An attribute line the model has no dedicated field for, kept so that a description can be
/// written back without losing it (`a=rtcp:9 IN IP4 0.0.0.0`, `a=sctp-port:5000`, ...).
public struct SDPAttribute: Sendable, Hashable {
    /// The attribute name, the text between `a=` and the first `:`.
    public var name: String
    /// The text after the first `:`, or nil for a flag attribute such as `a=ice-lite`.
    public var value: String?

    /// Creates an attribute.
    public init(name: String, value: String? = nil) {
        self.name = name
        self.value = value
    }

    /// The line without its `a=` prefix.
    var lineValue: String { value.map { "\(name):\($0)" } ?? name }
}
