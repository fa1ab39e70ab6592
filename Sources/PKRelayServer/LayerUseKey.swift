import Protocol
import RoomEngine

/// One dual-stream publication as its publisher hears about it: the connection, room and stream.
struct LayerUseKey: Sendable, Hashable {
    var session: SessionID
    var roomId: String
    var streamIndex: StreamIndex
}
