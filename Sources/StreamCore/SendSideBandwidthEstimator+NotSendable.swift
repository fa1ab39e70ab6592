/// An estimator is used by exactly one thread (its transport's data-plane thread), without locks.
@available(*, unavailable)
extension SendSideBandwidthEstimator: Sendable {}
