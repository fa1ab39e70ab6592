extension RelayNegotiator {
    /// The relay's offer to a subscriber carrying exactly `tracks`.
    ///
    /// Sections keep their order across renegotiations: pass the layout of the previous
    /// offer as `previous` (see `SubscriptionLayout.placing(_:)` for how tracks find their
    /// sections). Each active section is `sendonly` with the track's codec and rtx, `a=msid`,
    /// `a=ssrc` cname and msid lines with an FID group for rtx, the mid extension (and the
    /// audio level extension for audio), the transport-wide sequence number and `transport-cc`
    /// feedback (unless the capabilities leave them out), `rtcp-mux` and `rtcp-rsize`. Inactive sections keep
    /// the relay's port and transport attributes with `a=inactive`. The offer is ICE-lite,
    /// `a=setup:actpass`, and bundles every section, active or not.
    ///
    /// - Parameters:
    ///   - version: the `o=` session version, which must grow with each offer of the
    ///     subscription; it replaces `relay.sessionVersion`.
    /// - Throws: `SDPNegotiationError` when the tracks cannot be laid out.
    public func offer(
        forSubscription tracks: [OutgoingTrackDescription], previous: SubscriptionLayout = SubscriptionLayout(),
        relay: RelayTransportDescription, version: UInt64
    ) throws(SDPNegotiationError) -> SubscriptionOffer {
        let layout = try previous.placing(tracks)
        var offer = SessionDescription(origin: SDPOrigin(sessionID: relay.sessionID, sessionVersion: version))
        offer.isICELite = true
        // Every section stays in the BUNDLE group: a section no longer in use is offered
        // inactive, not stopped, because browsers drop the whole transport when the section
        // that tags the group is stopped.
        let mids = layout.slots.map(\.mid)
        if !mids.isEmpty { offer.groups = [.bundle(mids)] }
        offer.msidSemantic = SDPMsidSemantic(semantic: "WMS", identifiers: ["*"])
        // Also at session level, so an offer whose sections are partly stopped still names the
        // transport for peers (aiortc) that look for it outside the active sections.
        offer.transport = SDPTransportAttributes(
            iceUsernameFragment: relay.iceUsernameFragment, icePassword: relay.icePassword,
            fingerprints: [relay.fingerprint], setup: .actpass)
        offer.media = layout.slots.map { slot in
            slot.isActive ? activeSection(for: slot.track, relay: relay) : Self.inactiveSection(for: slot.track, relay: relay)
        }
        return SubscriptionOffer(sessionDescription: offer, layout: layout)
    }

    func activeSection(for track: OutgoingTrackDescription, relay: RelayTransportDescription, setup: SDPSetupRole = .actpass) -> MediaDescription {
        let codecs = track.codecs
        var section = MediaDescription(
            kind: track.kind, port: relay.candidatePort, transportProtocol: Self.rtpTransportProtocol,
            formats: codecs.map { String($0.payloadType) })
        relay.describe(in: &section, setup: setup)
        section.mid = track.mid
        section.direction = .sendonly
        section.msids = [SDPMsid(streamID: track.streamID, trackID: track.trackID)]
        section.isRTCPMultiplexed = true
        section.isReducedSizeRTCP = true
        section.extensionMaps = [SDPExtensionMap(id: capabilities.subscriptionMidExtensionID, uri: HeaderExtensionURI.mid)]
        if track.kind == .audio {
            section.extensionMaps.append(
                SDPExtensionMap(id: capabilities.subscriptionAudioLevelExtensionID, uri: HeaderExtensionURI.audioLevel))
        }
        // The transport-wide sequence number the relay stamps on everything it sends the
        // subscriber, whose feedback on it gives the relay its estimate of the downlink.
        let transportWide = capabilities.negotiatesTransportWideCongestionControl
        if transportWide {
            section.extensionMaps.append(
                SDPExtensionMap(id: capabilities.subscriptionTransportWideExtensionID, uri: HeaderExtensionURI.transportWideSequenceNumber))
        }
        section.rtpMaps = codecs.map(\.rtpMap)
        section.formatParameters = codecs.compactMap(\.fmtp)
        section.feedback = capabilities.feedback(for: track.kind).filter { transportWide || $0 != RelayCapabilities.transportWideFeedback }.map { value in
            let (type, parameter) = SDPText.splitOnce(Substring(value), at: " ")
            return SDPFeedback(payloadType: track.codec.payloadType, type: String(type), parameter: parameter.map(String.init))
        }
        var ssrcs = [track.ssrc]
        if let rtxSSRC = track.rtxSSRC {
            ssrcs.append(rtxSSRC)
            section.ssrcGroups = [SDPSSRCGroup(semantics: "FID", ssrcs: ssrcs)]
        }
        section.ssrcAttributes = ssrcs.flatMap { ssrc in
            [
                SDPSSRCAttribute(ssrc: ssrc, name: "cname", value: track.cname),
                SDPSSRCAttribute(ssrc: ssrc, name: "msid", value: "\(track.streamID) \(track.trackID)"),
            ]
        }
        return section
    }

    private static func inactiveSection(for track: OutgoingTrackDescription, relay: RelayTransportDescription) -> MediaDescription {
        var section = MediaDescription(
            kind: track.kind, port: relay.candidatePort, transportProtocol: rtpTransportProtocol, formats: [String(track.codec.payloadType)])
        relay.describe(in: &section, setup: .actpass)
        section.isReducedSizeRTCP = true
        section.mid = track.mid
        section.direction = .inactive
        section.rtpMaps = [track.codec.rtpMap]
        // BUNDLE-aware peers (aiortc) expect rtcp-mux on every section, stopped ones included.
        section.isRTCPMultiplexed = true
        return section
    }
}
