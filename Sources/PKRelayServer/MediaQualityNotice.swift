import Protocol
import RoomEngine

/// One event of the media-quality reports and the sessions it goes to (the same event for each,
/// so it is encoded once).
struct MediaQualityNotice: Sendable, Hashable {
    var sessions: [SessionID]
    var event: ServerEvent
}
