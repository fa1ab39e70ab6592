import Protocol

/// One publisher's stream, as a subscriber names it in `setRemoteVideoConfig`.
struct RemoteVideoKey: Sendable, Hashable {
    var roomId: String
    var userId: String
    var streamIndex: StreamIndex
}
