extension RelayNegotiator {
    /// Reads a subscriber's answer to `offer`.
    ///
    /// - Throws: `SDPNegotiationError.malformedDescription` when the text cannot be read, and
    ///   the errors of `parseAnswer(_:toSubscriptionOffer:)` for a description.
    public func parseAnswer(_ answer: String, toSubscriptionOffer offer: SubscriptionOffer) throws(SDPNegotiationError) -> SubscriptionAnswer {
        try parseAnswer(try Self.parse(answer), toSubscriptionOffer: offer)
    }

    /// Reads a subscriber's answer to `offer`: which sections it accepted and its transport
    /// parameters.
    ///
    /// A section is accepted when its port is not 0 and the client receives in it
    /// (`recvonly` or `sendrecv`).
    ///
    /// - Throws: `SDPNegotiationError` when the answer's sections do not match the offer's
    ///   (count, mids, a stopped section accepted), an accepted section lacks rtcp-mux,
    ///   BUNDLE or the offered codec payload type or lists one not offered, the ICE
    ///   credentials or fingerprint are missing, or the setup is not `active`.
    public func parseAnswer(_ answer: SessionDescription, toSubscriptionOffer offer: SubscriptionOffer) throws(SDPNegotiationError) -> SubscriptionAnswer {
        let offered = offer.sessionDescription.media
        guard answer.media.count == offered.count else {
            throw .answerSectionCountMismatch(offered: offered.count, answered: answer.media.count)
        }
        var acceptedMids: [String] = []
        var declinedMids: [String] = []
        var retransmissionMids: [String] = []
        var transportWideId: UInt8?
        for (index, (offeredSection, answered)) in zip(offered, answer.media).enumerated() {
            let mid = offeredSection.mid ?? ""
            if let answeredMid = answered.mid, answeredMid != mid {
                throw .answerMidMismatch(sectionIndex: index, offered: mid, answered: answeredMid)
            }
            if answered.mid == nil, !answered.isRejected {
                throw .answerMidMismatch(sectionIndex: index, offered: mid, answered: nil)
            }
            // A section the offer stopped (port 0) or left inactive carries nothing to receive.
            if offeredSection.isRejected || offer.sessionDescription.direction(of: offeredSection) == .inactive {
                // aiortc answers a stopped section with a live port and a=inactive: nothing is
                // received there either, so it counts as declined.
                guard answered.isRejected || !answer.direction(of: answered).receives else { throw .answerAcceptedStoppedSection(mid: mid) }
                continue
            }
            guard !answered.isRejected, answer.direction(of: answered).receives else {
                declinedMids.append(mid)
                continue
            }
            guard answered.isRTCPMultiplexed else { throw .missingRTCPMux(mid: mid) }
            try Self.checkCodecs(answered: answered, offered: offeredSection, mid: mid)
            acceptedMids.append(mid)
            let offeredRTX = offeredSection.payloadTypes.dropFirst().first { offeredSection.rtpMap(for: $0)?.isEncoding("rtx") ?? false }
            if let offeredRTX, answered.payloadTypes.contains(offeredRTX) { retransmissionMids.append(mid) }
            // Kept under the offered id only: the relay stamps one id on the whole transport.
            let offeredTransportWide = NegotiatedHeaderExtensions(offeredSection.extensionMaps).transportWideSequenceNumber
            if transportWideId == nil, let offeredTransportWide,
                NegotiatedHeaderExtensions(answered.extensionMaps).transportWideSequenceNumber == offeredTransportWide
            {
                transportWideId = offeredTransportWide
            }
        }
        guard !acceptedMids.isEmpty else {
            return SubscriptionAnswer(acceptedMids: [], declinedMids: declinedMids, clientTransport: nil)
        }
        let bundle = try Self.bundledMids(acceptedMids, in: answer)
        let tagMid = bundle.first ?? acceptedMids[0]
        guard let tagSection = answer.media(mid: tagMid) else { throw .sectionNotBundled(mid: tagMid) }
        let clientTransport = try Self.clientTransport(of: tagSection, mid: tagMid, in: answer)
        guard let setup = clientTransport.setup else { throw .missingAnswerSetup(mid: tagMid) }
        guard setup == .active else { throw .unacceptableAnswerSetup(mid: tagMid, role: setup) }
        var result = SubscriptionAnswer(acceptedMids: acceptedMids, declinedMids: declinedMids, clientTransport: clientTransport)
        result.retransmissionMids = retransmissionMids
        result.transportWideSequenceExtensionId = transportWideId
        return result
    }

    /// Checks that an accepted section uses only offered payload types, keeps the codec the
    /// relay sends (the first offered format) and does not remap it.
    private static func checkCodecs(answered: MediaDescription, offered: MediaDescription, mid: String) throws(SDPNegotiationError) {
        for format in answered.formats where !offered.formats.contains(format) {
            throw .answerPayloadTypeNotOffered(mid: mid, payloadType: format)
        }
        guard let codecPayloadType = offered.payloadTypes.first, let codec = offered.rtpMap(for: codecPayloadType) else { return }
        guard answered.payloadTypes.contains(codecPayloadType) else {
            throw .answerMissingCodec(mid: mid, payloadType: codecPayloadType)
        }
        if let map = answered.rtpMap(for: codecPayloadType),
            !map.isEncoding(codec.encodingName) || map.clockRate != codec.clockRate
        {
            throw .answerCodecMismatch(mid: mid, payloadType: codecPayloadType)
        }
    }
}
