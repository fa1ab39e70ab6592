extension RelayNegotiator {
    /// Reads a player's offer: the audio and video sections it receives in (the first of each
    /// kind), their codecs and rtx, and the player's transport.
    ///
    /// - Throws: `SDPNegotiationError` when the text cannot be read, a usable section lacks a
    ///   mid or rtcp-mux, they are not bundled, the ICE credentials or fingerprint are missing,
    ///   the setup is `passive` or `holdconn`, or no section can be used.
    public func readPlayerOffer(_ text: String) throws(SDPNegotiationError) -> PlayerOffer {
        let offer = try Self.parse(text)
        var sections: [PlayerOffer.Section] = []
        var rejected: [RejectedSection] = []
        var mids: Set<String> = []
        for (index, media) in offer.media.enumerated() {
            if let mid = media.mid, !mids.insert(mid).inserted { throw .duplicateMid(mid) }
            func reject(_ reason: SectionRejectionReason) { rejected.append(RejectedSection(index: index, mid: media.mid, kind: media.kind, reason: reason)) }
            guard media.kind == .audio || media.kind == .video else {
                reject(.unsupportedKind(media.kind))
                continue
            }
            guard !media.isRejected else {
                reject(.stoppedByClient)
                continue
            }
            guard media.transportProtocol.uppercased() == Self.rtpTransportProtocol else {
                reject(.unsupportedTransportProtocol(media.transportProtocol))
                continue
            }
            let direction = offer.direction(of: media)
            guard direction.receives else {
                reject(.notReceiving(direction))
                continue
            }
            guard !sections.contains(where: { $0.kind == media.kind }) else {
                reject(.secondOfKind)
                continue
            }
            let codecs = media.payloadTypes.compactMap { payloadType -> CodecDescription? in
                guard let map = media.rtpMap(for: payloadType),
                    capabilities.codecs.contains(where: {
                        $0.kind == media.kind && $0.fit(of: map, parameters: media.formatParameters(for: payloadType)) != nil
                    })
                else { return nil }
                return CodecDescription(payloadType: payloadType, in: media)
            }
            guard !codecs.isEmpty else {
                reject(.noCommonCodec)
                continue
            }
            guard let mid = media.mid else { throw .missingMid(sectionIndex: index) }
            guard media.isRTCPMultiplexed else { throw .missingRTCPMux(mid: mid) }
            var retransmission: [UInt8: UInt8] = [:]
            for payloadType in media.payloadTypes {
                guard let map = media.rtpMap(for: payloadType), map.isEncoding("rtx"),
                    let apt = media.formatParameters(for: payloadType)?.parameter("apt").flatMap({ UInt8($0) }),
                    codecs.contains(where: { $0.payloadType == apt })
                else { continue }
                retransmission[apt] = payloadType
            }
            let extensions = NegotiatedHeaderExtensions(media.extensionMaps.filter { $0.direction?.receives ?? true })
            sections.append(
                PlayerOffer.Section(
                    mid: mid, kind: media.kind, codecs: codecs, retransmission: retransmission,
                    audioLevelExtensionId: media.kind == .audio ? extensions.audioLevel : nil, midExtensionId: extensions.mid,
                    transportWideSequenceExtensionId: capabilities.negotiatesTransportWideCongestionControl ? extensions.transportWideSequenceNumber : nil))
        }
        guard let first = sections.first else { throw .noSectionAccepted(rejected) }
        _ = try Self.bundledMids(sections.map(\.mid), in: offer)
        let tagMid = offer.bundleGroup(containing: first.mid)?.mids.first { mid in sections.contains { $0.mid == mid } } ?? first.mid
        let tagSection = offer.media.first { $0.mid == tagMid }!
        let clientTransport = try Self.clientTransport(of: tagSection, mid: tagMid, in: offer)
        if let setup = clientTransport.setup, setup != .actpass, setup != .active { throw .unacceptableOfferSetup(mid: tagMid, role: setup) }
        return PlayerOffer(sections: sections, clientTransport: clientTransport, description: offer, rejectedSections: rejected)
    }

    /// The relay's answer to a player: each usable section that has a track sends it (`tracks`
    /// carry the player's mids and payload types), a usable section without one is inactive,
    /// and every other section is rejected. ICE-lite, `a=setup:passive`, one BUNDLE group.
    public func answer(toPlayerOffer offer: PlayerOffer, tracks: [OutgoingTrackDescription], relay: RelayTransportDescription) -> String {
        var answer = SessionDescription(origin: SDPOrigin(sessionID: relay.sessionID, sessionVersion: relay.sessionVersion))
        answer.isICELite = true
        answer.msidSemantic = SDPMsidSemantic(semantic: "WMS", identifiers: ["*"])
        var bundled: [String] = []
        answer.media = offer.description.media.map { offered in
            guard let mid = offered.mid, let section = offer.sections.first(where: { $0.mid == mid }) else {
                return Self.rejectedAnswerSection(to: offered)
            }
            bundled.append(mid)
            guard let track = tracks.first(where: { $0.mid == mid }) else {
                var inactive = MediaDescription(
                    kind: offered.kind, port: relay.candidatePort, transportProtocol: offered.transportProtocol,
                    formats: [String(section.codecs[0].payloadType)])
                relay.describe(in: &inactive, setup: .passive)
                inactive.mid = mid
                inactive.direction = .inactive
                inactive.isRTCPMultiplexed = true
                inactive.rtpMaps = [section.codecs[0].rtpMap]
                return inactive
            }
            var sending = activeSection(for: track, relay: relay, setup: .passive)
            sending.isReducedSizeRTCP = offered.isReducedSizeRTCP
            // Only what the player offered, under its ids.
            sending.extensionMaps = [
                section.midExtensionId.map { SDPExtensionMap(id: $0, uri: HeaderExtensionURI.mid) },
                section.audioLevelExtensionId.map { SDPExtensionMap(id: $0, uri: HeaderExtensionURI.audioLevel) },
                offer.transportWideSequenceExtensionId.map { SDPExtensionMap(id: $0, uri: HeaderExtensionURI.transportWideSequenceNumber) },
            ].compactMap { $0 }
            let offeredFeedback = Set(offered.feedback(for: track.codec.payloadType).map(\.feedbackValue))
            sending.feedback = sending.feedback.filter { offeredFeedback.contains($0.feedbackValue) }
            return sending
        }
        answer.groups = [.bundle(bundled)]
        return answer.serialized()
    }
}
