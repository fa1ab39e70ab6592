public import Protocol

/// A limit the layer allocator decided for one subscription, and why.
public struct VideoLimitDecision: Sendable, Hashable {
    public var ref: SubscriptionRef
    public var limit: VideoBandwidthLimit
    public var reason: FallbackOrRecoverReason
    /// The budget the decision was made against, bit/s (nil when none limited it).
    public var budgetBps: Int?

    public init(ref: SubscriptionRef, limit: VideoBandwidthLimit, reason: FallbackOrRecoverReason, budgetBps: Int?) {
        self.ref = ref
        self.limit = limit
        self.reason = reason
        self.budgetBps = budgetBps
    }
}
