/// What a client's answer to a subscription offer settled, as the control plane read it from
/// the SDP: the sections of the answered offer, the mids it accepted, those that kept the
/// offered RFC 4588 stream, and those active now that were not before.
public struct SubscriptionAnswerFacts: Sendable, Hashable {
    public var slots: [OfferedSlot]
    public var accepted: Set<String>
    public var retransmission: Set<String>
    public var newlyActive: Set<String>

    public init(slots: [OfferedSlot], accepted: Set<String>, retransmission: Set<String>, newlyActive: Set<String>) {
        self.slots = slots
        self.accepted = accepted
        self.retransmission = retransmission
        self.newlyActive = newlyActive
    }
}
