/// A recorder is used by exactly one thread (its transport's data-plane thread), without locks;
/// this keeps it from being handed across concurrency domains by accident.
@available(*, unavailable)
extension TransportFeedbackRecorder: Sendable {}
