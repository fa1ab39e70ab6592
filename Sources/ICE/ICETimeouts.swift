/// How long an ICE-lite agent waits before giving up, in nanoseconds of monotonic time.
public struct ICETimeouts: Sendable, Hashable {
    /// Without a valid check from the selected address for this long, consent has expired
    /// (RFC 7675 section 5.1 recommends 30 seconds).
    public var consent: UInt64
    /// Without a nomination this long after the agent was created, the transport is given up.
    public var connect: UInt64

    /// Thirty seconds for both.
    public init(consent: UInt64 = 30_000_000_000, connect: UInt64 = 30_000_000_000) {
        self.consent = consent
        self.connect = connect
    }
}
