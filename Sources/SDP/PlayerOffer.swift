/// What a player's offer asks for (a WHEP client, which offers to receive): the sections the
/// relay can send in, each with the codecs the player takes in its own numbering, and the
/// player's transport. The relay answers it with ``RelayNegotiator/answer(toPlayerOffer:tracks:relay:)``.
public struct PlayerOffer: Sendable, Hashable {
    /// One section the relay can send in.
    public struct Section: Sendable, Hashable {
        public var mid: String
        public var kind: SDPMediaKind
        /// The codecs the player takes, in its order of preference, under its payload types.
        public var codecs: [CodecDescription]
        /// The player's rtx payload type for each codec payload type it pairs one with.
        public var retransmission: [UInt8: UInt8]
        /// The player's ids for the header extensions the relay writes, when it offered them.
        public var audioLevelExtensionId: UInt8?
        public var midExtensionId: UInt8?
        /// The player's id for the transport-wide sequence number, when it offered it and the
        /// relay negotiates transport-wide congestion control.
        public var transportWideSequenceExtensionId: UInt8?
    }

    /// The usable sections, in the offer's order: at most one audio and one video.
    public var sections: [Section]
    /// The player's ICE credentials and certificate fingerprints.
    public var clientTransport: ClientTransportParameters
    /// Every section of the offer, answered in its order.
    var description: SessionDescription
    /// Why the other sections are not used.
    public var rejectedSections: [RejectedSection]

    /// The id under which the relay stamps transport-wide sequence numbers on what it sends the
    /// player (the first usable section's), nil when none is negotiated.
    public var transportWideSequenceExtensionId: UInt8? { sections.lazy.compactMap(\.transportWideSequenceExtensionId).first }
}
