/// Why a scenario could not be loaded.
public struct ScenarioError: Error, Sendable, CustomStringConvertible, Equatable {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
