/// One track the relay sends the caller (`getStats`), with what the caller's receiver reports said.
public struct SubscribedTrackStats: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var streamIndex: StreamIndex
    public var kind: TrackKind
    public var ssrc: UInt32
    public var packets: UInt64
    public var bytes: UInt64
    public var retransmissions: UInt64
    public var fractionLost: Double
    public var cumulativeLost: Int32
    public var roundTripTimeMs: Double?
    /// Video only: the encoding delivered (0 big, 1 small, 2 medium) and whether video is
    /// delivered at all (false while the layer allocator paused it: audio only).
    public var videoStreamType: VideoStreamType?
    public var videoEnabled: Bool?

    public init(
        roomId: String, userId: String, streamIndex: StreamIndex, kind: TrackKind, ssrc: UInt32, packets: UInt64, bytes: UInt64, retransmissions: UInt64,
        fractionLost: Double, cumulativeLost: Int32, roundTripTimeMs: Double?
    ) {
        self.roomId = roomId
        self.userId = userId
        self.streamIndex = streamIndex
        self.kind = kind
        self.ssrc = ssrc
        self.packets = packets
        self.bytes = bytes
        self.retransmissions = retransmissions
        self.fractionLost = fractionLost
        self.cumulativeLost = cumulativeLost
        self.roundTripTimeMs = roundTripTimeMs
    }
}
