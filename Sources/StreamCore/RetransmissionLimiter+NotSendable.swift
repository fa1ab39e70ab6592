/// A retransmission limiter is used by exactly one thread, without locks; this keeps it from
/// being handed across concurrency domains by accident.
@available(*, unavailable)
extension RetransmissionLimiter: Sendable {}
