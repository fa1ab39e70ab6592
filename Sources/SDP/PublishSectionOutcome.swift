/// What the relay decided for one section of a publish offer.
enum PublishSectionOutcome: Sendable, Hashable {
    /// The section is accepted with this codec selection.
    case accepted(PublishSelection)
    /// The section is answered with port 0.
    case rejected(SectionRejectionReason)
}
