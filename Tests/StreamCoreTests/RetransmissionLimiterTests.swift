import StreamCore
import Testing

@Suite struct RetransmissionLimiterTests {
    /// Resends `sequenceNumber` if the limiter lets it go now; whether it went.
    @discardableResult
    static func request(
        _ limiter: RetransmissionLimiter, _ sequenceNumber: UInt16, bytes: Int = 1200, at nowMs: Int64, rtt: Double?, streamBytes: UInt64 = 0
    ) -> Bool {
        guard limiter.isDue(sequenceNumber, nowMs: nowMs, roundTripTimeMs: rtt), limiter.affords(bytes, streamBytesSent: streamBytes) else { return false }
        limiter.recordResent(sequenceNumber, bytes: bytes, nowMs: nowMs)
        return true
    }

    /// One scripted request: at `nowMs`, with the subscriber's round trip `rtt`, for `sequenceNumber`.
    struct Step: Sendable {
        var nowMs: Int64
        var sequenceNumber: UInt16
        var rtt: Double?
        var resent: Bool
    }

    static let script: [Step] = [
        Step(nowMs: 1000, sequenceNumber: 7, rtt: nil, resent: true),
        // The same number again, in the same NACK or the next: the default round trip (100 ms).
        Step(nowMs: 1000, sequenceNumber: 7, rtt: nil, resent: false),
        Step(nowMs: 1099, sequenceNumber: 7, rtt: nil, resent: false),
        Step(nowMs: 1000, sequenceNumber: 8, rtt: nil, resent: true),
        Step(nowMs: 1100, sequenceNumber: 7, rtt: nil, resent: true),
        // A measured round trip replaces the default.
        Step(nowMs: 1140, sequenceNumber: 7, rtt: 40, resent: true),
        Step(nowMs: 1179, sequenceNumber: 7, rtt: 40, resent: false),
        Step(nowMs: 1180, sequenceNumber: 7, rtt: 40.0, resent: true),
        // A round trip near zero (loopback) still waits the floor of 20 ms.
        Step(nowMs: 1181, sequenceNumber: 7, rtt: 0.2, resent: false),
        Step(nowMs: 1199, sequenceNumber: 7, rtt: 0.2, resent: false),
        Step(nowMs: 1200, sequenceNumber: 7, rtt: 0.2, resent: true),
        // A number 512 further on shares the slot: it is another packet, never resent yet.
        Step(nowMs: 1200, sequenceNumber: 7 &+ 512, rtt: 0.2, resent: true),
        Step(nowMs: 1201, sequenceNumber: 7, rtt: 0.2, resent: true),
    ]

    @Test func aPacketGoesAgainAtMostOncePerRoundTrip() {
        let limiter = RetransmissionLimiter(capacity: 512)
        #expect(limiter.interval(roundTripTimeMs: nil) == 100)
        #expect(limiter.interval(roundTripTimeMs: 3) == 20)
        #expect(limiter.interval(roundTripTimeMs: 250.2) == 251)
        #expect(limiter.interval(roundTripTimeMs: .nan) == 100)
        for (index, step) in Self.script.enumerated() {
            let resent = Self.request(limiter, step.sequenceNumber, bytes: 10, at: step.nowMs, rtt: step.rtt)
            #expect(resent == step.resent, "step \(index): \(step.sequenceNumber) at \(step.nowMs) ms")
        }
    }

    @Test func theBudgetStartsWithOneBurstAndIsRefilledByTheStream() {
        var policy = RetransmissionPolicy()
        policy.budgetPercent = 50
        policy.burstBytes = 3000
        let limiter = RetransmissionLimiter(capacity: 64, policy: policy, streamBytesSent: 5000)
        // Two 1200-byte packets fit the burst; the third does not.
        #expect(Self.request(limiter, 1, at: 0, rtt: nil, streamBytes: 5000))
        #expect(Self.request(limiter, 2, at: 0, rtt: nil, streamBytes: 5000))
        #expect(limiter.budget.availableBytes == 600)
        #expect(!Self.request(limiter, 3, at: 0, rtt: nil, streamBytes: 5000))
        // A refused packet is not noted: it may go as soon as the budget allows.
        #expect(limiter.isDue(3, nowMs: 0, roundTripTimeMs: nil))
        // 1 200 bytes of stream earn 600: enough for one more.
        #expect(Self.request(limiter, 3, at: 0, rtt: nil, streamBytes: 6200))
        #expect(limiter.budget.availableBytes == 0)
        // Earned halves are kept: 1 + 1 + ... bytes of stream in odd steps add up.
        for step in 1...2400 { _ = limiter.affords(0, streamBytesSent: 6200 + UInt64(step)) }
        #expect(limiter.budget.availableBytes == 1200)
        // And the bucket never holds more than one burst, however long the stream ran alone.
        #expect(limiter.affords(1200, streamBytesSent: 10_000_000))
        #expect(limiter.budget.availableBytes == 3000)
    }

    /// The amplification a NACK flood used to buy: 300 entries naming the same 17 packets, sent
    /// every millisecond for a second with no new media. Each packet goes once per round trip,
    /// and the total stays within one burst.
    @Test func aFloodOfNacksForTheSamePacketsBuysNoMoreThanTheRules() {
        let limiter = RetransmissionLimiter(capacity: 512)
        var resent = 0
        for nowMs in Int64(0)..<1000 {
            for _ in 0..<300 {
                for offset in UInt16(0)..<17 where Self.request(limiter, 100 &+ offset, at: nowMs, rtt: nil) { resent += 1 }
            }
        }
        // Once at 0, 100, ..., 900 ms for each of 17 packets would be 170; the 128 KiB burst
        // holds 109 packets of 1 200 bytes.
        #expect(resent == 109)
        #expect(limiter.budget.availableBytes < 1200)
    }
}
