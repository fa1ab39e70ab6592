/// What the relay accepts from publishers and offers to subscribers.
///
/// Everything outside these lists that a client offers (VP9, AV1, red, ulpfec, flexfec,
/// goog-remb, abs-send-time, playout-delay, data channels, ...) is left out of the relay's
/// answers. Transport-wide congestion control (the transport-wide sequence number extension and
/// `transport-cc` feedback) is negotiated both ways by default: the relay reports each
/// publisher packet's arrival, on which the publisher's send-side estimator runs, and stamps
/// what it sends a subscriber, whose feedback drives the relay's estimate of that subscriber's
/// bandwidth; ``withoutTransportWideCongestionControl()`` leaves it out.
public struct RelayCapabilities: Sendable, Hashable {
    /// The codecs, in the relay's order of preference within each kind. Within one codec the
    /// offer's order decides, after the codec's own preferences (H.264 profiles).
    public var codecs: [RelayCodec]
    /// Whether retransmission payload types (RFC 4588 `rtx` with `apt=`) are negotiated for
    /// video.
    public var negotiatesRetransmission: Bool
    /// The `a=rtcp-fb` values accepted for audio, as written after the payload type.
    public var audioFeedback: [String]
    /// The `a=rtcp-fb` values accepted for video, as written after the payload type.
    public var videoFeedback: [String]
    /// The header extension URIs the relay reads.
    public var headerExtensionURIs: [String]
    /// Whether the relay accepts `a=extmap-allow-mixed` (it reads both extension forms).
    public var allowsMixedExtensionForms: Bool
    /// The extension id the relay's subscription offers give the mid extension.
    public var subscriptionMidExtensionID: UInt8
    /// The extension id the relay's subscription offers give the audio level extension.
    public var subscriptionAudioLevelExtensionID: UInt8
    /// The extension id the relay's subscription offers give the transport-wide sequence
    /// number, offered (with `transport-cc` feedback) when ``headerExtensionURIs`` lists it.
    public var subscriptionTransportWideExtensionID: UInt8

    /// Creates capabilities; the defaults are the relay's standard set.
    public init(
        codecs: [RelayCodec] = [.opus, .vp8, .h264],
        negotiatesRetransmission: Bool = true,
        audioFeedback: [String] = [RelayCapabilities.transportWideFeedback],
        videoFeedback: [String] = ["nack", "nack pli", "ccm fir", RelayCapabilities.transportWideFeedback],
        headerExtensionURIs: [String] = [
            HeaderExtensionURI.mid, HeaderExtensionURI.rtpStreamID, HeaderExtensionURI.repairedRTPStreamID,
            HeaderExtensionURI.audioLevel, HeaderExtensionURI.transportWideSequenceNumber,
        ],
        allowsMixedExtensionForms: Bool = true,
        subscriptionMidExtensionID: UInt8 = 1,
        subscriptionAudioLevelExtensionID: UInt8 = 2,
        subscriptionTransportWideExtensionID: UInt8 = 3
    ) {
        self.codecs = codecs
        self.negotiatesRetransmission = negotiatesRetransmission
        self.audioFeedback = audioFeedback
        self.videoFeedback = videoFeedback
        self.headerExtensionURIs = headerExtensionURIs
        self.allowsMixedExtensionForms = allowsMixedExtensionForms
        self.subscriptionMidExtensionID = subscriptionMidExtensionID
        self.subscriptionAudioLevelExtensionID = subscriptionAudioLevelExtensionID
        self.subscriptionTransportWideExtensionID = subscriptionTransportWideExtensionID
    }

    /// The relay's standard capabilities.
    public static let standard = RelayCapabilities()

    /// The `a=rtcp-fb` value of transport-wide congestion control feedback.
    public static let transportWideFeedback = "transport-cc"

    /// These capabilities without transport-wide congestion control: neither the sequence
    /// number extension nor `transport-cc` feedback is accepted from publishers or offered to
    /// subscribers (`media.congestionFeedback: false`).
    public func withoutTransportWideCongestionControl() -> RelayCapabilities {
        var capabilities = self
        capabilities.audioFeedback.removeAll { $0 == Self.transportWideFeedback }
        capabilities.videoFeedback.removeAll { $0 == Self.transportWideFeedback }
        capabilities.headerExtensionURIs.removeAll { $0 == HeaderExtensionURI.transportWideSequenceNumber }
        return capabilities
    }

    /// Whether transport-wide congestion control is negotiated (offered to subscribers, kept in
    /// publishers' answers).
    public var negotiatesTransportWideCongestionControl: Bool {
        headerExtensionURIs.contains(HeaderExtensionURI.transportWideSequenceNumber)
    }

    /// The feedback values accepted for `kind`.
    func feedback(for kind: SDPMediaKind) -> [String] { kind == .audio ? audioFeedback : videoFeedback }
}
