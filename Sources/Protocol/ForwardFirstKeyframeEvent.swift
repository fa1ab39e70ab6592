/// Data of `onForwardStreamFirstKeyframe`: the first keyframe of the forwarded user reached a
/// subscriber in the target room, `elapsedMs` after the forward (or link) was started. `via` is
/// `forward` or `link`.
public struct ForwardFirstKeyframeEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var targetRoomId: String
    public var elapsedMs: Int64
    public var via: String

    public init(roomId: String, userId: String, targetRoomId: String, elapsedMs: Int64, via: String) {
        self.roomId = roomId
        self.userId = userId
        self.targetRoomId = targetRoomId
        self.elapsedMs = elapsedMs
        self.via = via
    }
}
