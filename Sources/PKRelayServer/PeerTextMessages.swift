import HummingbirdWebSocket

/// The text messages of a WebSocket's inbound stream (binary ones carry nothing between nodes
/// and are skipped).
struct PeerTextMessages: AsyncSequence, Sendable {
    typealias Element = String
    let messages: WebSocketInboundMessageStream

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: WebSocketInboundMessageStream.AsyncIterator

        mutating func next() async throws -> String? {
            while let message = try await base.next() {
                if case .text(let text) = message { return text }
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: messages.makeAsyncIterator()) }
}
