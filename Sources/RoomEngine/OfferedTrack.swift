public import Protocol

/// One track the relay offers a WebRTC subscriber, with everything its SDP section says: the
/// mid, the payload types on this transport, and the SSRCs of the track and its retransmissions.
/// The engine chooses all of it, so the media plane is told the same numbers the client is.
public struct OfferedTrack: Sendable, Hashable {
    /// The sink the track is sent from.
    public var sinkId: UInt32
    /// The section's mid: kept while the sink exists, so renegotiation finds the section again.
    public var mid: String
    public var kind: TrackKind
    public var codec: String
    public var clockRate: Int
    public var channels: Int?
    /// The `a=fmtp` text, when the publisher gave one.
    public var formatParameters: String?
    /// The payload type on this transport (the publisher's own unless it means another codec here).
    public var payloadType: UInt8
    /// The payload type and SSRC of the RFC 4588 stream offered for video; nil when no
    /// dynamic payload type was free.
    public var rtxPayloadType: UInt8?
    public var ssrc: UInt32
    public var rtxSSRC: UInt32?
    /// The RTCP CNAME and the `a=msid` stream and track ids.
    public var cname: String
    public var streamID: String
    public var trackID: String

    public init(
        sinkId: UInt32, mid: String, kind: TrackKind, codec: String, clockRate: Int, channels: Int?, formatParameters: String?, payloadType: UInt8,
        rtxPayloadType: UInt8?, ssrc: UInt32, rtxSSRC: UInt32?, cname: String, streamID: String, trackID: String
    ) {
        self.sinkId = sinkId
        self.mid = mid
        self.kind = kind
        self.codec = codec
        self.clockRate = clockRate
        self.channels = channels
        self.formatParameters = formatParameters
        self.payloadType = payloadType
        self.rtxPayloadType = rtxPayloadType
        self.ssrc = ssrc
        self.rtxSSRC = rtxSSRC
        self.cname = cname
        self.streamID = streamID
        self.trackID = trackID
    }
}
