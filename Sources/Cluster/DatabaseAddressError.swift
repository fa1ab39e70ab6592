/// Why a database URL cannot be used.
public struct DatabaseAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, as a sentence fragment after "cluster.databaseURL".
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
