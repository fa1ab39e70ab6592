/// Requests from the control side to the media engine's thread.
enum EngineCommand: Sendable {
    case open(SocketSpec)
    case publish(socket: Int, PublisherSpec)
    case close(socket: Int)
    /// Sends one empty receiver report from the socket: the relay sends to the address given in
    /// `connectTransport` only once an authenticated packet has come from it.
    case proveAddress(socket: Int)
    case watch(KeyframeWatchSpec)
    /// Starts the measured period: zeroes counters, loss state and latency.
    case resetMeasurements
}
