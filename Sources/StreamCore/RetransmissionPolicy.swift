/// How often and how much a relay resends to one subscriber when it NACKs: the numbers a
/// ``RetransmissionLimiter`` applies.
///
/// A NACK costs the subscriber a few bytes and can name 17 packets per entry, any number of
/// times; answered blindly, one small packet makes the relay send megabytes, to whatever address
/// the subscriber gave. So a packet goes again to a subscriber at most once per round-trip time
/// (mediasoup's rule: a request within it is the same loss asked for again, or a flood), and
/// what goes again is paid for from a budget that the subscriber's own stream fills.
public struct RetransmissionPolicy: Sendable, Hashable {
    /// The round-trip time assumed while the subscriber has measured none (mediasoup's default).
    public var defaultRoundTripMs: Int64 = 100
    /// The shortest time between two resends of one packet, whatever round trip was measured
    /// (on loopback it measures 0).
    public var minimumIntervalMs: Int64 = 20
    /// The bytes a subscriber may be resent for every 100 bytes of its stream.
    public var budgetPercent: Int = 50
    /// The most resendable bytes a subscriber holds at once: what a new subscriber starts with,
    /// and the ceiling of what its stream earns it.
    public var burstBytes: Int = 128 * 1024

    /// The defaults: once per round trip (100 ms until measured, never under 20 ms), half the
    /// stream's bytes, 128 KiB at once.
    public init() {}
}
