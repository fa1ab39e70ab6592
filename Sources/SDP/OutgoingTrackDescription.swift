/// One track the relay sends to a subscriber: the section it goes in and what it carries.
public struct OutgoingTrackDescription: Sendable, Hashable {
    /// The mid of the section; keep it stable for the life of the subscription so that
    /// renegotiation finds the track's section again.
    public var mid: String
    /// Audio or video.
    public var kind: SDPMediaKind
    /// The codec the relay sends, with the payload type used on this transport.
    public var codec: CodecDescription
    /// The payload type of retransmissions, when the relay retransmits on a separate stream.
    public var rtxPayloadType: UInt8?
    /// The SSRC the relay sends the track with.
    public var ssrc: UInt32
    /// The SSRC of the retransmission stream, when `rtxPayloadType` is set.
    public var rtxSSRC: UInt32?
    /// The RTCP CNAME of the SSRCs.
    public var cname: String
    /// The media stream id written in `a=msid`.
    public var streamID: String
    /// The track id written in `a=msid`.
    public var trackID: String

    /// Creates a track description.
    public init(
        mid: String, kind: SDPMediaKind, codec: CodecDescription, rtxPayloadType: UInt8? = nil, ssrc: UInt32,
        rtxSSRC: UInt32? = nil, cname: String, streamID: String, trackID: String
    ) {
        self.mid = mid
        self.kind = kind
        self.codec = codec
        self.rtxPayloadType = rtxPayloadType
        self.ssrc = ssrc
        self.rtxSSRC = rtxSSRC
        self.cname = cname
        self.streamID = streamID
        self.trackID = trackID
    }

    /// The retransmission codec, when the track has one.
    var rtxCodec: CodecDescription? {
        rtxPayloadType.map {
            CodecDescription(payloadType: $0, name: "rtx", clockRate: codec.clockRate, formatParameters: "apt=\(codec.payloadType)")
        }
    }

    /// The codecs of the track's section: the media codec then its rtx.
    var codecs: [CodecDescription] { [codec] + (rtxCodec.map { [$0] } ?? []) }

    /// Checks what the track's section needs: a usable mid and identifiers, audio or
    /// video, valid payload types, and rtx payload type and SSRC together.
    func validate() throws(SDPNegotiationError) {
        guard SDPText.isToken(Substring(mid)) else { throw .invalidMid(mid) }
        guard kind == .audio || kind == .video else { throw .unsupportedTrackKind(mid: mid, kind: kind) }
        for (field, value) in [("cname", cname), ("stream id", streamID), ("track id", trackID)]
        where !SDPText.isToken(Substring(value)) {
            throw .invalidTrackIdentifier(mid: mid, field: field)
        }
        guard codec.payloadType <= 127 else { throw .invalidPayloadType(mid: mid, payloadType: codec.payloadType) }
        if let rtxPayloadType, rtxPayloadType > 127 || rtxPayloadType == codec.payloadType {
            throw .invalidPayloadType(mid: mid, payloadType: rtxPayloadType)
        }
        guard (rtxPayloadType == nil) == (rtxSSRC == nil) else { throw .incompleteRetransmission(mid: mid) }
        if let rtxSSRC, rtxSSRC == ssrc { throw .duplicateSSRC(ssrc) }
    }
}
