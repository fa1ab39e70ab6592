import SecureTransport

/// The control plane's view of open transports: ports in use, profiles, connection state.
struct TransportRegistry: Sendable {
    struct Entry: Sendable {
        var port: Int
        var profile: SRTPProfile?
        var connected: Bool
        /// A WebRTC transport on its shard's WebRTC port, which it shares and does not own.
        var sharesSocket = false
    }

    var entries: [Int: Entry] = [:]
    var portsInUse: Set<Int> = []
    var nextId = 1
    var portCursor: Int

    init(firstPort: Int) { portCursor = firstPort }
}
