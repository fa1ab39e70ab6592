/// Decides, for one subscriber's stream, which NACKed packets the relay sends again (the rules
/// of ``RetransmissionPolicy``): a packet at most once per round-trip time, and only within the
/// byte budget the stream has earned (``RetransmissionBudget``). The same number named twice in
/// one NACK, or in a flood of them, is a packet already resent within the round trip.
///
/// When each packet was last resent is kept in a ring indexed by the low bits of its sequence
/// number, allocated once in `init`: deciding never searches and never allocates. The limiter
/// belongs to the one thread that serves the subscriber and is deliberately not `Sendable`.
public final class RetransmissionLimiter {
    /// Sequence numbers remembered, a power of two: at least as many as the retransmission
    /// buffer holds, so that every packet that can be resent has its own entry.
    public let capacity: Int
    public let policy: RetransmissionPolicy
    /// What the subscriber may still be resent.
    public private(set) var budget: RetransmissionBudget

    private let slotMask: Int
    /// Per slot: the sequence number in the top 16 bits, the time it was resent plus one (0: never) below.
    private let resent: UnsafeMutablePointer<UInt64>
    private static let timeMask: UInt64 = (1 << 48) - 1

    /// - Parameters:
    ///   - capacity: sequence numbers remembered, a power of two from 1 to 65 536.
    ///   - policy: the intervals and the budget.
    ///   - streamBytesSent: the stream's byte count now (see ``RetransmissionBudget``).
    public init(capacity: Int = 512, policy: RetransmissionPolicy = RetransmissionPolicy(), streamBytesSent: UInt64 = 0) {
        precondition(capacity > 0 && capacity <= 65_536 && capacity & (capacity - 1) == 0, "capacity must be a power of two between 1 and 65536")
        self.capacity = capacity
        self.policy = policy
        slotMask = capacity - 1
        budget = RetransmissionBudget(percent: policy.budgetPercent, burstBytes: policy.burstBytes, streamBytesSent: streamBytesSent)
        resent = .allocate(capacity: capacity)
        resent.initialize(repeating: 0, count: capacity)
    }

    deinit {
        resent.deallocate()
    }

    /// The time one packet must wait before it is resent again: the measured round trip, or
    /// the default while none is known, and never less than the floor.
    @inline(__always)
    public func interval(roundTripTimeMs: Double?) -> Int64 {
        guard let roundTripTimeMs, roundTripTimeMs.isFinite, roundTripTimeMs >= 0 else {
            return max(policy.minimumIntervalMs, policy.defaultRoundTripMs)
        }
        // Round trips come from 32-bit NTP fractions, so they are far below an hour.
        return max(policy.minimumIntervalMs, Int64(min(roundTripTimeMs, 3_600_000).rounded(.up)))
    }

    /// Whether `sequenceNumber` may go again now: not when it went less than one round trip ago.
    ///
    /// - Parameters:
    ///   - sequenceNumber: the number the subscriber knows the packet by.
    ///   - nowMs: the current monotonic time in milliseconds (not negative).
    ///   - roundTripTimeMs: the subscriber's measured round trip, nil when unknown.
    public func isDue(_ sequenceNumber: UInt16, nowMs: Int64, roundTripTimeMs: Double?) -> Bool {
        let entry = resent[Int(sequenceNumber) & slotMask]
        guard entry != 0, UInt16(truncatingIfNeeded: entry >> 48) == sequenceNumber else { return true }
        let resentMs = Int64(entry & Self.timeMask) - 1
        return nowMs - resentMs >= interval(roundTripTimeMs: roundTripTimeMs)
    }

    /// Whether resending `bytes` fits the budget, counting what the stream sent since the last call.
    ///
    /// - Parameter streamBytesSent: the stream's running byte count (the originals sent).
    public func affords(_ bytes: Int, streamBytesSent: UInt64) -> Bool {
        budget.earn(streamBytesSent: streamBytesSent)
        return budget.affords(bytes)
    }

    /// Notes a packet that went again: its time starts its interval, its bytes leave the budget.
    public func recordResent(_ sequenceNumber: UInt16, bytes: Int, nowMs: Int64) {
        resent[Int(sequenceNumber) & slotMask] = UInt64(truncatingIfNeeded: sequenceNumber) << 48 | (UInt64(max(0, nowMs) + 1) & Self.timeMask)
        budget.spend(bytes)
    }
}
