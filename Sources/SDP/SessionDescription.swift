/// A session description (RFC 8866) with the WebRTC attributes of JSEP (RFC 8829): the
/// session part and its media sections.
///
/// Read one with `init(parsing:)` and write one with `serialized()`. Attributes without a
/// dedicated field are kept in `otherAttributes`, so a description read and written again
/// keeps them. Lines other than `v o s c b t m a` (`i=`, `u=`, `e=`, `k=`, ...) are read and
/// dropped: WebRTC gives them no meaning.
public struct SessionDescription: Sendable, Hashable {
    /// The `o=` line.
    public var origin: SDPOrigin
    /// The `s=` line, `-` in WebRTC.
    public var sessionName: String
    /// A session-level `c=` line, which media sections without their own inherit.
    public var connection: SDPConnection?
    /// Session-level `b=` lines.
    public var bandwidths: [SDPBandwidth]
    /// The `t=` line.
    public var timing: SDPTiming
    /// `a=group` attributes, BUNDLE among them.
    public var groups: [SDPGroup]
    /// Whether the writer implements ICE-lite (`a=ice-lite`).
    public var isICELite: Bool
    /// Session-level ICE and DTLS attributes, which media-level ones override.
    public var transport: SDPTransportAttributes
    /// A session-level direction, which media sections without their own inherit.
    public var direction: SDPDirection?
    /// Whether the writer accepts one-byte and two-byte header extensions in the same
    /// stream (`a=extmap-allow-mixed`, RFC 8285).
    public var allowsMixedExtensionForms: Bool
    /// The `a=msid-semantic` attribute.
    public var msidSemantic: SDPMsidSemantic?
    /// Other session-level attributes, in the order read.
    public var otherAttributes: [SDPAttribute]
    /// The media sections, in `m=` line order.
    public var media: [MediaDescription]

    /// Creates a description with the given origin; everything else starts empty, with the
    /// WebRTC defaults `s=-` and `t=0 0`.
    public init(
        origin: SDPOrigin, sessionName: String = "-", connection: SDPConnection? = nil,
        bandwidths: [SDPBandwidth] = [], timing: SDPTiming = SDPTiming(), groups: [SDPGroup] = [],
        isICELite: Bool = false, transport: SDPTransportAttributes = SDPTransportAttributes(),
        direction: SDPDirection? = nil, allowsMixedExtensionForms: Bool = false,
        msidSemantic: SDPMsidSemantic? = nil, otherAttributes: [SDPAttribute] = [], media: [MediaDescription] = []
    ) {
        self.origin = origin
        self.sessionName = sessionName
        self.connection = connection
        self.bandwidths = bandwidths
        self.timing = timing
        self.groups = groups
        self.isICELite = isICELite
        self.transport = transport
        self.direction = direction
        self.allowsMixedExtensionForms = allowsMixedExtensionForms
        self.msidSemantic = msidSemantic
        self.otherAttributes = otherAttributes
        self.media = media
    }
}
