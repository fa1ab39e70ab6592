import TrafficCore

/// A failure that ends the run with a given exit status.
struct ToolFailure: Error, CustomStringConvertible {
    var status: ExitStatus
    var message: String

    init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    var description: String { message }
}
