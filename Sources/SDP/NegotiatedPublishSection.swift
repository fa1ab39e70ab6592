/// What the relay agreed to receive in one accepted section of a publish offer.
public struct NegotiatedPublishSection: Sendable, Hashable {
    /// The section's mid.
    public var mid: String
    /// The media kind.
    public var kind: SDPMediaKind
    /// The codec chosen, with the client's payload type and parameters.
    public var codec: CodecDescription
    /// The client's retransmission payload type for `codec`, if negotiated.
    public var rtxPayloadType: UInt8?
    /// The `a=rtcp-fb` values agreed for the codec (`nack`, `nack pli`, `ccm fir`).
    public var feedback: [String]
    /// The client's ids of the header extensions the relay reads.
    public var headerExtensions: NegotiatedHeaderExtensions
    /// Whether the client accepts reduced-size RTCP.
    public var isReducedSizeRTCP: Bool
    /// The media SSRCs the offer announces with `a=ssrc`, in order, retransmission SSRCs
    /// excluded. Empty when the client announces none (rid-based simulcast).
    public var ssrcs: [UInt32]
    /// Retransmission SSRC by media SSRC, from `a=ssrc-group:FID`.
    public var rtxSSRCs: [UInt32: UInt32]
    /// The `a=ssrc-group:SIM` groups, each listing media SSRCs from lowest to highest layer.
    public var simulcastSSRCGroups: [[UInt32]]
    /// The CNAME the offer gives its SSRCs, if any.
    public var cname: String?
    /// The simulcast rids the relay agreed to receive, in the client's order; empty without
    /// simulcast.
    public var simulcastRIDs: [String]

    /// Creates the record.
    public init(
        mid: String, kind: SDPMediaKind, codec: CodecDescription, rtxPayloadType: UInt8? = nil, feedback: [String] = [],
        headerExtensions: NegotiatedHeaderExtensions = NegotiatedHeaderExtensions(), isReducedSizeRTCP: Bool = false,
        ssrcs: [UInt32] = [], rtxSSRCs: [UInt32: UInt32] = [:], simulcastSSRCGroups: [[UInt32]] = [],
        cname: String? = nil, simulcastRIDs: [String] = []
    ) {
        self.mid = mid
        self.kind = kind
        self.codec = codec
        self.rtxPayloadType = rtxPayloadType
        self.feedback = feedback
        self.headerExtensions = headerExtensions
        self.isReducedSizeRTCP = isReducedSizeRTCP
        self.ssrcs = ssrcs
        self.rtxSSRCs = rtxSSRCs
        self.simulcastSSRCGroups = simulcastSSRCGroups
        self.cname = cname
        self.simulcastRIDs = simulcastRIDs
    }
}
