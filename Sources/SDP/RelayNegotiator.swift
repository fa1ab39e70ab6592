/// The relay's offer/answer logic.
///
/// The relay is ICE-lite, always the DTLS server, carries every section on one BUNDLE
/// transport and requires rtcp-mux. Publishers offer and the relay answers
/// (`answer(toPublishOffer:relay:)`); for subscribers the relay offers
/// (`offer(forSubscription:previous:relay:version:)`) and reads the answer
/// (`parseAnswer(_:toSubscriptionOffer:)`).
public struct RelayNegotiator: Sendable, Hashable {
    /// What the relay accepts and offers.
    public var capabilities: RelayCapabilities

    /// Creates a negotiator, by default with the relay's standard capabilities.
    public init(capabilities: RelayCapabilities = .standard) {
        self.capabilities = capabilities
    }

    /// The transport protocol of every RTP section the relay accepts or offers.
    static let rtpTransportProtocol = "UDP/TLS/RTP/SAVPF"

    /// Reads `text`, turning a parse failure into a negotiation error.
    static func parse(_ text: String) throws(SDPNegotiationError) -> SessionDescription {
        do {
            return try SessionDescription(parsing: text)
        } catch {
            throw .malformedDescription(error)
        }
    }

    /// The client's transport parameters in force for `media`, with each one required.
    static func clientTransport(
        of media: MediaDescription, mid: String, in description: SessionDescription
    ) throws(SDPNegotiationError) -> ClientTransportParameters {
        let transport = description.transport(of: media)
        guard let usernameFragment = transport.iceUsernameFragment else { throw .missingICEUsernameFragment(mid: mid) }
        guard let password = transport.icePassword else { throw .missingICEPassword(mid: mid) }
        guard !transport.fingerprints.isEmpty else { throw .missingFingerprint(mid: mid) }
        return ClientTransportParameters(
            iceUsernameFragment: usernameFragment, icePassword: password, fingerprints: transport.fingerprints,
            setup: transport.setup)
    }

    /// The BUNDLE group of `description` that covers every mid in `mids`, in the group's
    /// order and restricted to `mids`; its first mid is the section whose transport is used.
    static func bundledMids(_ mids: [String], in description: SessionDescription) throws(SDPNegotiationError) -> [String] {
        guard let first = mids.first else { return [] }
        guard description.groups.contains(where: \.isBundle) else { throw .missingBundleGroup }
        guard let group = description.bundleGroup(containing: first) else { throw .sectionNotBundled(mid: first) }
        for mid in mids where !group.mids.contains(mid) { throw .sectionNotBundled(mid: mid) }
        var seen: Set<String> = []
        return group.mids.filter { mids.contains($0) && seen.insert($0).inserted }
    }
}
