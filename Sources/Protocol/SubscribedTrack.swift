/// One track the relay sends a subscriber: the SSRC and payload type it will carry.
public struct SubscribedTrack: Sendable, Codable, Hashable {
    public var kind: TrackKind
    public var ssrc: UInt32
    public var payloadType: Int
    public var codec: String
    public var clockRate: Int
    public var channels: Int?
    public var parameters: String?
    public var transportId: Int
    /// Video only: the encoding being delivered, which differs from the one asked for while the
    /// publisher does not send it, or while layer allocation limits the subscription.
    public var videoStreamType: VideoStreamType?
    /// Video on an SRTP transport with transport-wide numbers only (`createTransport`
    /// `transportWideSequenceExtensionId`): the retransmission stream (RFC 4588, `apt` the
    /// track's payload type) the relay repairs and probes on, since a repair on the track's own
    /// SSRC would carry a new transport-wide number under the first copy's SRTP index.
    public var rtxSSRC: UInt32?
    public var rtxPayloadType: Int?
    public init(
        kind: TrackKind, ssrc: UInt32, payloadType: Int, codec: String, clockRate: Int, channels: Int?, parameters: String?, transportId: Int,
        videoStreamType: VideoStreamType? = nil
    ) {
        self.kind = kind
        self.ssrc = ssrc
        self.payloadType = payloadType
        self.codec = codec
        self.clockRate = clockRate
        self.channels = channels
        self.parameters = parameters
        self.transportId = transportId
        self.videoStreamType = videoStreamType
    }
}
