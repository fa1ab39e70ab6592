/// A configuration problem, naming the key (dotted path) and the reason.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var key: String
    public var reason: String

    public init(key: String, reason: String) {
        self.key = key
        self.reason = reason
    }

    public var description: String { key.isEmpty ? reason : "\(key): \(reason)" }
}
