/// Data of `onSimulcastSubscribeFallback`: the video a subscription delivers changed layer, or
/// paused or resumed. Volcengine RTC's `RemoteStreamSwitch`, with the relay's estimate added.
public struct SimulcastSubscribeFallbackEvent: Sendable, Codable, Hashable {
    public var roomId: String
    /// The publisher.
    public var userId: String
    public var streamIndex: StreamIndex
    /// The encoding delivered before and after (0 big, 1 small).
    public var beforeVideoStreamType: VideoStreamType
    public var afterVideoStreamType: VideoStreamType
    /// Whether video was delivered before and after: false while paused (audio only).
    public var beforeVideoEnabled: Bool
    public var afterVideoEnabled: Bool
    public var reason: FallbackOrRecoverReason
    /// The relay's estimate of the subscriber's downlink, bit/s, when the change was for bandwidth.
    public var estimateBps: Int?

    public init(
        roomId: String, userId: String, streamIndex: StreamIndex, beforeVideoStreamType: VideoStreamType, afterVideoStreamType: VideoStreamType,
        beforeVideoEnabled: Bool, afterVideoEnabled: Bool, reason: FallbackOrRecoverReason, estimateBps: Int? = nil
    ) {
        self.roomId = roomId
        self.userId = userId
        self.streamIndex = streamIndex
        self.beforeVideoStreamType = beforeVideoStreamType
        self.afterVideoStreamType = afterVideoStreamType
        self.beforeVideoEnabled = beforeVideoEnabled
        self.afterVideoEnabled = afterVideoEnabled
        self.reason = reason
        self.estimateBps = estimateBps
    }
}
