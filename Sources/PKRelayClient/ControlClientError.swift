public import Protocol

/// Why a ``ControlClient`` call failed.
public enum ControlClientError: Error, Sendable, CustomStringConvertible {
    /// The relay answered the request with an error.
    case relay(RelayError)
    /// No answer (or event) arrived in time.
    case timeout(String)
    /// The WebSocket is closed (or never opened).
    case connectionClosed
    /// The WebSocket could not be opened.
    case connectFailed(String)
    /// A message could not be encoded, or an answer could not be decoded into the expected type.
    case malformed(String)

    public var description: String {
        switch self {
        case .relay(let error): "relay error \(error.code): \(error.message)"
        case .timeout(let what): "timed out waiting for \(what)"
        case .connectionClosed: "the control connection is closed"
        case .connectFailed(let reason): "could not connect: \(reason)"
        case .malformed(let reason): "malformed message: \(reason)"
        }
    }

    /// The relay's error, when the relay answered with one.
    public var relayError: RelayError? {
        if case .relay(let error) = self { return error }
        return nil
    }
}
