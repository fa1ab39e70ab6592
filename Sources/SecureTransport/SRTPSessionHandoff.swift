/// Carries an ``SRTPSession`` from the thread that created it to the thread that will use it.
///
/// The session itself is not `Sendable` because it must only ever be used by one thread
/// at a time. Creating keys happens on the control side, while packets are protected on
/// the data-plane thread, so ownership has to move exactly once. This wrapper is
/// `@unchecked Sendable` under one rule: whoever wraps a session gives up every other
/// reference to it, and only the receiving thread calls ``take()``.
public struct SRTPSessionHandoff: @unchecked Sendable {
    /// The session in transit.
    private let session: SRTPSession

    /// Wraps a session for transfer; the caller must not keep or use the session afterwards.
    public init(_ session: consuming SRTPSession) {
        self.session = session
    }

    /// Returns the session to the thread that now owns it.
    public func take() -> SRTPSession {
        session
    }
}
