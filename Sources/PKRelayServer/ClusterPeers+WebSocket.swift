import HummingbirdWebSocket

extension ClusterPeers {
    /// Runs a connection another node dialed (the `/cluster` route's WebSocket) until it ends.
    nonisolated func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        await serve(messages: PeerTextMessages(messages: inbound.messages(maxSize: 1 << 20)), write: { try await outbound.write(.text($0)) }, dialed: nil)
    }
}
