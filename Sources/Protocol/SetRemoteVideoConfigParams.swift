/// Parameters of `setRemoteVideoConfig` (Volcengine RTC's `setRemoteVideoConfig`): the size at
/// which this subscriber shows one publisher's video, so that the relay sends the smallest
/// simulcast layer that still fills it. `width` and `height` 0 lift the ceiling.
public struct SetRemoteVideoConfigParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    /// The publisher's stream: `main` when absent.
    public var streamIndex: StreamIndex?
    /// The rendered size in device pixels, 0 to ``largestSide`` each.
    public var width: Int
    public var height: Int
    /// Volcengine's frame-rate ceiling, accepted for its shape: it applies to SVC streams, which
    /// PKRelay does not thin, so it changes nothing.
    public var framerate: Int?

    /// The largest side a rendered size may state.
    public static let largestSide = 16384

    public init(roomId: String, userId: String, streamIndex: StreamIndex? = nil, width: Int, height: Int, framerate: Int? = nil) {
        self.roomId = roomId
        self.userId = userId
        self.streamIndex = streamIndex
        self.width = width
        self.height = height
        self.framerate = framerate
    }
}
