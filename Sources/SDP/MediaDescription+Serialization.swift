extension MediaDescription {
    /// The section's lines, without line endings, in a fixed order: `m=`, `c=`, `b=`, then
    /// `mid`, the direction, `msid`, the ICE and DTLS attributes, candidates,
    /// `end-of-candidates`, `rtcp-mux`, `rtcp-rsize`, `bundle-only`, `extmap`; then for each
    /// payload type of the `m=` line its `rtpmap`, `rtcp-fb` and `fmtp` (with `rtcp-fb:*`
    /// first and attributes of payload types missing from the `m=` line after); then
    /// `ssrc-group`, `ssrc`, `rid`, `simulcast` and the other attributes in the order read.
    public func serializedLines() -> [String] {
        var lines = ["m=\(mediaLine)"]
        if let connection { lines.append("c=\(connection.sdpValue)") }
        lines += bandwidths.map { "b=\($0.sdpValue)" }
        var attributes: [String] = []
        if let mid { attributes.append("mid:\(mid)") }
        if let direction { attributes.append(direction.rawValue) }
        attributes += msids.map { "msid:\($0.sdpValue)" }
        attributes += transport.attributeLines
        attributes += candidates.map { "candidate:\($0.sdpValue)" }
        if isEndOfCandidates { attributes.append("end-of-candidates") }
        if isRTCPMultiplexed { attributes.append("rtcp-mux") }
        if isReducedSizeRTCP { attributes.append("rtcp-rsize") }
        if isBundleOnly { attributes.append("bundle-only") }
        attributes += extensionMaps.map { "extmap:\($0.sdpValue)" }
        attributes += codecAttributeLines()
        attributes += ssrcGroups.map { "ssrc-group:\($0.sdpValue)" }
        attributes += ssrcAttributes.map { "ssrc:\($0.sdpValue)" }
        attributes += rids.map { "rid:\($0.sdpValue)" }
        if let simulcast { attributes.append("simulcast:\(simulcast.sdpValue)") }
        attributes += otherAttributes.map(\.lineValue)
        return lines + attributes.map { "a=\($0)" }
    }

    /// `rtpmap`, `rtcp-fb` and `fmtp` lines grouped by payload type in `m=` line order, as
    /// browsers write them.
    private func codecAttributeLines() -> [String] {
        var lines = feedback.filter { $0.payloadType == nil }.map { "rtcp-fb:\($0.sdpValue)" }
        var written: Set<UInt8> = []
        let listed = formats.compactMap { SDPText.payloadType(Substring($0)) }
        let unlisted =
            (rtpMaps.map(\.payloadType) + feedback.compactMap(\.payloadType)
            + formatParameters.map(\.payloadType)).filter { !listed.contains($0) }
        for payloadType in listed + unlisted where written.insert(payloadType).inserted {
            lines += rtpMaps.filter { $0.payloadType == payloadType }.map { "rtpmap:\($0.sdpValue)" }
            lines += feedback.filter { $0.payloadType == payloadType }.map { "rtcp-fb:\($0.sdpValue)" }
            lines += formatParameters.filter { $0.payloadType == payloadType }.map { "fmtp:\($0.sdpValue)" }
        }
        return lines
    }
}
