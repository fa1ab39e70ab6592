/// One media section: an `m=` line and the lines that follow it until the next `m=`.
public struct MediaDescription: Sendable, Hashable {
    /// The media type.
    public var kind: SDPMediaKind
    /// The port; 0 marks a rejected or stopped section (unless `isBundleOnly`).
    public var port: UInt16
    /// The number of ports when the `m=` line writes `<port>/<count>`.
    public var portCount: Int?
    /// The transport protocol, such as `UDP/TLS/RTP/SAVPF` or `UDP/DTLS/SCTP`.
    public var transportProtocol: String
    /// The formats: payload types for RTP, `webrtc-datachannel` for data channels.
    public var formats: [String]
    /// The `c=` line.
    public var connection: SDPConnection?
    /// `b=` lines.
    public var bandwidths: [SDPBandwidth]
    /// `a=mid`, the identification tag groups and header extensions refer to.
    public var mid: String?
    /// The direction attribute, when written here.
    public var direction: SDPDirection?
    /// `a=msid` attributes.
    public var msids: [SDPMsid]
    /// Media-level ICE and DTLS attributes; they override the session-level ones.
    public var transport: SDPTransportAttributes
    /// `a=candidate` attributes.
    public var candidates: [SDPCandidate]
    /// Whether `a=end-of-candidates` is present.
    public var isEndOfCandidates: Bool
    /// Whether RTP and RTCP share one port (`a=rtcp-mux`, RFC 5761).
    public var isRTCPMultiplexed: Bool
    /// Whether reduced-size RTCP is accepted (`a=rtcp-rsize`, RFC 5506).
    public var isReducedSizeRTCP: Bool
    /// Whether the section may only be used bundled (`a=bundle-only`, RFC 9143); such a
    /// section has port 0 in an offer without being rejected.
    public var isBundleOnly: Bool
    /// `a=extmap` attributes.
    public var extensionMaps: [SDPExtensionMap]
    /// `a=rtpmap` attributes.
    public var rtpMaps: [SDPRTPMap]
    /// `a=fmtp` attributes.
    public var formatParameters: [SDPFormatParameters]
    /// `a=rtcp-fb` attributes.
    public var feedback: [SDPFeedback]
    /// `a=ssrc-group` attributes.
    public var ssrcGroups: [SDPSSRCGroup]
    /// `a=ssrc` attributes.
    public var ssrcAttributes: [SDPSSRCAttribute]
    /// `a=rid` attributes.
    public var rids: [SDPRID]
    /// The `a=simulcast` attribute.
    public var simulcast: SDPSimulcast?
    /// Other attributes of the section, in the order read.
    public var otherAttributes: [SDPAttribute]

    /// Creates a section from its `m=` line; every attribute starts absent.
    public init(kind: SDPMediaKind, port: UInt16, transportProtocol: String, formats: [String]) {
        self.kind = kind
        self.port = port
        self.portCount = nil
        self.transportProtocol = transportProtocol
        self.formats = formats
        self.connection = nil
        self.bandwidths = []
        self.mid = nil
        self.direction = nil
        self.msids = []
        self.transport = SDPTransportAttributes()
        self.candidates = []
        self.isEndOfCandidates = false
        self.isRTCPMultiplexed = false
        self.isReducedSizeRTCP = false
        self.isBundleOnly = false
        self.extensionMaps = []
        self.rtpMaps = []
        self.formatParameters = []
        self.feedback = []
        self.ssrcGroups = []
        self.ssrcAttributes = []
        self.rids = []
        self.simulcast = nil
        self.otherAttributes = []
    }

    static let expectedForm = "'<media> <port>[/<count>] <protocol> <format>...' such as 'video 9 UDP/TLS/RTP/SAVPF 96 97'"

    /// Reads the value of an `m=` line; nil when it has fewer than four fields or a bad port.
    init?(mediaLine: Substring) {
        let fields = SDPText.fields(mediaLine)
        guard fields.count >= 4, SDPText.isToken(fields[0]) else { return nil }
        let (portText, countText) = SDPText.splitOnce(fields[1], at: "/")
        guard let port = SDPText.unsigned(portText, as: UInt16.self) else { return nil }
        self.init(
            kind: SDPMediaKind(token: fields[0]), port: port, transportProtocol: String(fields[2]),
            formats: fields[3...].map(String.init))
        if let countText {
            guard let count = SDPText.unsigned(countText, as: UInt16.self), count > 0 else { return nil }
            portCount = Int(count)
        }
    }

    /// The value written after `m=`.
    var mediaLine: String {
        let port = portCount.map { "\(self.port)/\($0)" } ?? "\(self.port)"
        return ([kind.token, port, transportProtocol] + formats).joined(separator: " ")
    }
}
