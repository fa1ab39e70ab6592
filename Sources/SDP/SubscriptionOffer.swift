/// An offer the relay makes to a subscriber, with the layout to pass to the next
/// renegotiation.
public struct SubscriptionOffer: Sendable, Hashable {
    /// The offer to send to the client.
    public var sessionDescription: SessionDescription
    /// The sections of the offer; pass it as `previous` when the subscription changes.
    public var layout: SubscriptionLayout

    /// Creates the offer.
    public init(sessionDescription: SessionDescription, layout: SubscriptionLayout) {
        self.sessionDescription = sessionDescription
        self.layout = layout
    }

    /// The offer as SDP text.
    public var sdp: String { sessionDescription.serialized() }
}
