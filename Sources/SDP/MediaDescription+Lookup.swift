extension MediaDescription {
    /// The numeric formats of the `m=` line: the payload types of an RTP section.
    public var payloadTypes: [UInt8] { formats.compactMap { SDPText.payloadType(Substring($0)) } }

    /// Whether the section is rejected or stopped: port 0 without `a=bundle-only`.
    public var isRejected: Bool { port == 0 && !isBundleOnly }

    /// The `a=rtpmap` of `payloadType`, if any.
    public func rtpMap(for payloadType: UInt8) -> SDPRTPMap? {
        rtpMaps.first { $0.payloadType == payloadType }
    }

    /// The `a=fmtp` of `payloadType`, if any.
    public func formatParameters(for payloadType: UInt8) -> SDPFormatParameters? {
        formatParameters.first { $0.payloadType == payloadType }
    }

    /// The `a=rtcp-fb` attributes that apply to `payloadType`, `*` ones included.
    public func feedback(for payloadType: UInt8) -> [SDPFeedback] {
        feedback.filter { $0.applies(to: payloadType) }
    }

    /// The `a=extmap` for the extension `uri`, if any.
    public func extensionMap(uri: String) -> SDPExtensionMap? {
        extensionMaps.first { $0.uri == uri }
    }

    /// The SSRCs named by `a=ssrc` attributes, each once, in the order first named.
    public var announcedSSRCs: [UInt32] {
        var seen: Set<UInt32> = []
        return ssrcAttributes.map(\.ssrc).filter { seen.insert($0).inserted }
    }

    /// The value of the first `a=ssrc:<ssrc> <name>:<value>` attribute for `ssrc` and `name`.
    public func ssrcAttribute(_ name: String, of ssrc: UInt32) -> String? {
        ssrcAttributes.first { $0.ssrc == ssrc && $0.name == name }?.value
    }
}
