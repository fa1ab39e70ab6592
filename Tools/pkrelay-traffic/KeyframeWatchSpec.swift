/// Waits for the first keyframe of `publisherId` at any client in room `roomIndex` after
/// `sinceMicroseconds` (when a forward or link was requested).
struct KeyframeWatchSpec: Sendable {
    var roomIndex: Int
    var publisherId: UInt32
    var sinceMicroseconds: Int64
}
