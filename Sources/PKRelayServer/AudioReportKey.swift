import RoomEngine

/// Who asked for volume reports of which room.
struct AudioReportKey: Hashable, Sendable {
    var session: SessionID
    var roomId: String
}
