/// One step of a fuzzed control-channel script.
enum ControlFuzzStep: Sendable, Equatable {
    /// A text frame from one of the script's sessions.
    case send(session: Int, text: String)
    /// A binary frame from one of the script's sessions.
    case sendBinary(session: Int)
    /// The session's connection closes; a new connection takes its place.
    case reconnect(session: Int)
    /// Time passes, then the relay's timers run as its lifecycle runs them.
    case advance(milliseconds: Int64)
    /// An admin API call: `rooms`, `room ID`, `dismiss ID`, `kick ROOM USER`, `stop ROOM USER`, `stats`.
    case admin(words: [String])
    /// The relay starts draining for shutdown.
    case drain
}
