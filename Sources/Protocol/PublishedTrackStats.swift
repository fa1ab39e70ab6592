/// One track the caller publishes, as the relay receives it (`getStats`).
public struct PublishedTrackStats: Sendable, Codable, Hashable {
    public var roomId: String
    public var streamIndex: StreamIndex
    public var kind: TrackKind
    public var ssrc: UInt32
    public var packets: UInt64
    public var bytes: UInt64
    public var packetsLost: Int64
    public var jitterMs: Double
    public var keyframes: UInt64
    public var keyframeRequestsSent: UInt64
    /// Milliseconds since the last packet.
    public var idleMs: Int64

    public init(
        roomId: String, streamIndex: StreamIndex, kind: TrackKind, ssrc: UInt32, packets: UInt64, bytes: UInt64, packetsLost: Int64, jitterMs: Double,
        keyframes: UInt64, keyframeRequestsSent: UInt64, idleMs: Int64
    ) {
        self.roomId = roomId
        self.streamIndex = streamIndex
        self.kind = kind
        self.ssrc = ssrc
        self.packets = packets
        self.bytes = bytes
        self.packetsLost = packetsLost
        self.jitterMs = jitterMs
        self.keyframes = keyframes
        self.keyframeRequestsSent = keyframeRequestsSent
        self.idleMs = idleMs
    }
}
