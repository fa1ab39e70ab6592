public import Protocol

/// The answer to one request plus the actions it causes, in order.
public struct EngineOutcome<Success: Sendable>: Sendable {
    public var result: Result<Success, RelayError>
    public var actions: [EngineAction]

    public init(result: Result<Success, RelayError>, actions: [EngineAction]) {
        self.result = result
        self.actions = actions
    }
}
