/// How the relay ends a control connection: the WebSocket close code and reason it sends.
public struct ConnectionClose: Sendable, Equatable {
    /// RFC 6455 close code.
    public var code: UInt16
    public var reason: String

    public init(code: UInt16, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The session ended normally on the relay's side (drain, slow reader, refusal of service).
    public static let goingAway = ConnectionClose(code: 1001, reason: "session ended")

    /// Over a connection limit: the client may try again later, or elsewhere.
    static func tryAgainLater(_ reason: String) -> ConnectionClose { ConnectionClose(code: 1013, reason: reason) }

    /// The client went on sending while refused.
    static func policyViolation(_ reason: String) -> ConnectionClose { ConnectionClose(code: 1008, reason: reason) }
}
