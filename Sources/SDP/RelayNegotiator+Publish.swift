extension RelayNegotiator {
    /// Answers a publisher's offer.
    ///
    /// - Throws: `SDPNegotiationError.malformedDescription` when the text cannot be read, and
    ///   the errors of `answer(toPublishOffer:relay:)` for a description.
    public func answer(toPublishOffer offer: String, relay: RelayTransportDescription) throws(SDPNegotiationError) -> PublishAnswer {
        try answer(toPublishOffer: try Self.parse(offer), relay: relay)
    }

    /// Answers a publisher's offer.
    ///
    /// Each audio or video section the client sends in, over UDP/TLS/RTP/SAVPF, with a codec
    /// in common is accepted `recvonly` with only the chosen codec (the client's payload type
    /// and parameters), its rtx, the supported feedback and header extensions (the client's
    /// ids), `rtcp-rsize` when offered, and `a=simulcast:recv` with `a=rid` recv lines when
    /// the client offers rid simulcast. Other sections are answered with port 0, keeping
    /// their position and mid. The answer is ICE-lite, `a=setup:passive`, and bundles the
    /// accepted sections.
    ///
    /// - Throws: `SDPNegotiationError` when an accepted section lacks a mid or rtcp-mux, the
    ///   accepted sections are not in one BUNDLE group, the ICE credentials or fingerprint
    ///   are missing, the offer's setup is `passive` or `holdconn`, or nothing is accepted.
    public func answer(toPublishOffer offer: SessionDescription, relay: RelayTransportDescription) throws(SDPNegotiationError) -> PublishAnswer {
        var answerMedia: [MediaDescription] = []
        var accepted: [(offered: MediaDescription, negotiated: NegotiatedPublishSection)] = []
        var rejected: [RejectedSection] = []
        var mids: Set<String> = []
        for (index, offered) in offer.media.enumerated() {
            if let mid = offered.mid, !mids.insert(mid).inserted { throw .duplicateMid(mid) }
            switch publishSelection(for: offered, in: offer) {
            case .rejected(let reason):
                rejected.append(RejectedSection(index: index, mid: offered.mid, kind: offered.kind, reason: reason))
                answerMedia.append(Self.rejectedAnswerSection(to: offered))
            case .accepted(let selection):
                guard let mid = offered.mid else { throw .missingMid(sectionIndex: index) }
                guard offered.isRTCPMultiplexed else { throw .missingRTCPMux(mid: mid) }
                var section = publishAnswerSection(to: offered, mid: mid, selection: selection, relay: relay)
                let negotiated = negotiatedSection(offered: offered, answered: &section, mid: mid, selection: selection)
                accepted.append((offered, negotiated))
                answerMedia.append(section)
            }
        }
        guard let first = accepted.first else { throw .noSectionAccepted(rejected) }

        let bundle = try Self.bundledMids(accepted.map(\.negotiated.mid), in: offer)
        let tagMid = bundle.first ?? first.negotiated.mid
        let tagSection = accepted.first { $0.negotiated.mid == tagMid }?.offered ?? first.offered
        let clientTransport = try Self.clientTransport(of: tagSection, mid: tagMid, in: offer)
        for (offered, negotiated) in accepted {
            if let setup = offer.transport(of: offered).setup, setup != .actpass, setup != .active {
                throw .unacceptableOfferSetup(mid: negotiated.mid, role: setup)
            }
        }

        var answer = SessionDescription(
            origin: SDPOrigin(sessionID: relay.sessionID, sessionVersion: relay.sessionVersion))
        answer.isICELite = true
        answer.groups = [.bundle(bundle)]
        answer.allowsMixedExtensionForms = offer.allowsMixedExtensionForms && capabilities.allowsMixedExtensionForms
        answer.media = answerMedia
        let negotiated = NegotiatedPublish(
            sections: accepted.map(\.negotiated), rejectedSections: rejected, clientTransport: clientTransport)
        return PublishAnswer(sessionDescription: answer, negotiated: negotiated)
    }

    /// The answer to a rejected section: port 0, the offer's protocol and first format (an
    /// `m=` line needs one), the mid kept so the client can match it.
    static func rejectedAnswerSection(to offered: MediaDescription) -> MediaDescription {
        var section = MediaDescription(
            kind: offered.kind, port: 0, transportProtocol: offered.transportProtocol,
            formats: offered.formats.isEmpty ? ["0"] : [offered.formats[0]])
        section.connection = .placeholder
        section.mid = offered.mid
        return section
    }

    /// The codec, rtx and feedback the relay picks in an offered section, or why it rejects it.
    private func publishSelection(for offered: MediaDescription, in offer: SessionDescription) -> PublishSectionOutcome {
        guard offered.kind == .audio || offered.kind == .video else { return .rejected(.unsupportedKind(offered.kind)) }
        guard !offered.isRejected else { return .rejected(.stoppedByClient) }
        guard offered.transportProtocol.uppercased() == Self.rtpTransportProtocol else {
            return .rejected(.unsupportedTransportProtocol(offered.transportProtocol))
        }
        let direction = offer.direction(of: offered)
        guard direction.sends else { return .rejected(.notSending(direction)) }
        guard let codec = chooseCodec(in: offered) else { return .rejected(.noCommonCodec) }
        var rtx: CodecDescription?
        if capabilities.negotiatesRetransmission, offered.kind == .video {
            rtx =
                offered.payloadTypes.lazy.compactMap { payloadType -> CodecDescription? in
                    guard let map = offered.rtpMap(for: payloadType), map.isEncoding("rtx"), map.clockRate == codec.clockRate,
                        offered.formatParameters(for: payloadType)?.parameter("apt") == String(codec.payloadType)
                    else { return nil }
                    return CodecDescription(payloadType: payloadType, in: offered)
                }.first
        }
        let accepted = capabilities.feedback(for: offered.kind)
        var feedback: [String] = []
        for item in offered.feedback(for: codec.payloadType) {
            let value = item.feedbackValue
            if accepted.contains(value), !feedback.contains(value) { feedback.append(value) }
        }
        return .accepted(PublishSelection(codec: codec, rtx: rtx, feedback: feedback))
    }

    /// The relay's preferred codec among those offered: relay preference first, then the
    /// codec's own preferences, then the offer's order.
    private func chooseCodec(in offered: MediaDescription) -> CodecDescription? {
        for codec in capabilities.codecs where codec.kind == offered.kind {
            var best: (fit: Int, payloadType: UInt8)?
            for payloadType in offered.payloadTypes {
                guard let map = offered.rtpMap(for: payloadType),
                    let fit = codec.fit(of: map, parameters: offered.formatParameters(for: payloadType))
                else { continue }
                if best.map({ fit < $0.fit }) ?? true { best = (fit, payloadType) }
            }
            if let best, let description = CodecDescription(payloadType: best.payloadType, in: offered) {
                return description
            }
        }
        return nil
    }

    /// The answer to an accepted section, before simulcast.
    private func publishAnswerSection(
        to offered: MediaDescription, mid: String, selection: PublishSelection, relay: RelayTransportDescription
    ) -> MediaDescription {
        let codecs = [selection.codec] + (selection.rtx.map { [$0] } ?? [])
        var section = MediaDescription(
            kind: offered.kind, port: relay.candidatePort, transportProtocol: offered.transportProtocol,
            formats: codecs.map { String($0.payloadType) })
        relay.describe(in: &section, setup: .passive)
        section.mid = mid
        section.direction = .recvonly
        section.isRTCPMultiplexed = true
        section.isReducedSizeRTCP = offered.isReducedSizeRTCP
        section.extensionMaps = offered.extensionMaps.compactMap { map -> SDPExtensionMap? in
            guard capabilities.headerExtensionURIs.contains(map.uri) else { return nil }
            switch map.direction {
            case nil: return SDPExtensionMap(id: map.id, uri: map.uri)
            case .sendrecv?, .sendonly?: return SDPExtensionMap(id: map.id, direction: .recvonly, uri: map.uri)
            // The client will not send it, and the relay sends nothing in a publish section.
            case .recvonly?, .inactive?: return nil
            }
        }
        section.rtpMaps = codecs.map(\.rtpMap)
        section.formatParameters = codecs.compactMap(\.fmtp)
        section.feedback = selection.feedback.map { value in
            let (type, parameter) = SDPText.splitOnce(Substring(value), at: " ")
            return SDPFeedback(payloadType: selection.codec.payloadType, type: String(type), parameter: parameter.map(String.init))
        }
        return section
    }

    /// The negotiated record of an accepted section; adds the simulcast answer to `answered`.
    private func negotiatedSection(
        offered: MediaDescription, answered: inout MediaDescription, mid: String, selection: PublishSelection
    ) -> NegotiatedPublishSection {
        let extensions = NegotiatedHeaderExtensions(answered.extensionMaps)
        var rtxSSRCs: [UInt32: UInt32] = [:]
        var simulcastGroups: [[UInt32]] = []
        for group in offered.ssrcGroups {
            switch group.semantics.uppercased() {
            case "FID" where group.ssrcs.count == 2: rtxSSRCs[group.ssrcs[0]] = group.ssrcs[1]
            case "SIM": simulcastGroups.append(group.ssrcs)
            default: break
            }
        }
        let repairSSRCs = Set(rtxSSRCs.values)
        let ssrcs = offered.announcedSSRCs.filter { !repairSSRCs.contains($0) }
        let cname = offered.ssrcAttributes.first { $0.name == "cname" }?.value

        var rids: [String] = []
        if extensions.rtpStreamID != nil, let simulcast = offered.simulcast {
            let usable = Set(
                offered.rids.filter { rid in
                    rid.direction == .send && (rid.payloadTypes.isEmpty || rid.payloadTypes.contains(selection.codec.payloadType))
                }.map(\.id))
            let streams = simulcast.send.map { $0.filter { usable.contains($0.rid) } }.filter { !$0.isEmpty }
            var seen: Set<String> = []
            rids = streams.flatMap { $0.map(\.rid) }.filter { seen.insert($0).inserted }
            if !streams.isEmpty {
                answered.simulcast = SDPSimulcast(receive: streams)
                answered.rids = rids.map { SDPRID(id: $0, direction: .recv) }
            }
        }
        return NegotiatedPublishSection(
            mid: mid, kind: offered.kind, codec: selection.codec, rtxPayloadType: selection.rtx?.payloadType,
            feedback: selection.feedback, headerExtensions: extensions, isReducedSizeRTCP: offered.isReducedSizeRTCP,
            ssrcs: ssrcs, rtxSSRCs: rtxSSRCs, simulcastSSRCGroups: simulcastGroups, cname: cname, simulcastRIDs: rids)
    }
}
