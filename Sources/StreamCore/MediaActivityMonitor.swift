/// Watches whether a publication still sends media, so that one that has gone silent can be
/// unpublished.
///
/// The clock starts when the publication is created, so a publication that never sends
/// anything times out as well.
public struct MediaActivityMonitor: Sendable {
    /// When the publication was created, in monotonic milliseconds.
    public let createdMs: Int64
    /// When media last arrived, or `nil` if none has.
    public private(set) var lastMediaMs: Int64?

    /// Creates a monitor for a publication created at `createdMs`.
    public init(createdMs: Int64) {
        self.createdMs = createdMs
    }

    /// Notes that media arrived.
    ///
    /// - Parameter nowMs: The current monotonic time in milliseconds.
    public mutating func mediaReceived(nowMs: Int64) {
        lastMediaMs = max(lastMediaMs ?? nowMs, nowMs)
    }

    /// Whether no media has arrived for at least `timeoutMs`, counting from creation when none
    /// ever arrived.
    ///
    /// - Parameters:
    ///   - nowMs: The current monotonic time in milliseconds.
    ///   - timeoutMs: How long a publication may stay silent.
    public func isTimedOut(nowMs: Int64, timeoutMs: Int64 = 10_000) -> Bool {
        nowMs - (lastMediaMs ?? createdMs) >= timeoutMs
    }
}
