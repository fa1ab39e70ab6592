import StreamCore
import Testing

@Suite struct RemoteReceiverStatisticsTests {
    /// Report fields with the round-trip time they describe.
    static let roundTrips: [(lsr: UInt32, dlsr: UInt32, now: UInt32, rttMs: Double)] = [
        // 1.75 s - 1 s - 0.5 s = 250 ms.
        (0x0001_0000, 0x0000_8000, 0x0001_C000, 250.0),
        // NTP middle bits wrap between the sender report and the receiver report.
        (0xFFFF_0000, 0x0000_4000, 0x0000_4000, 1000.0),
        // No delay at the receiver: the whole gap is the round trip.
        (0x1234_0000, 0, 0x1234_0CCD, 3277.0 * 1000 / 65536),
        // A receiver clock slightly off gives a negative value, read as zero.
        (0x0001_0000, 0x0000_9000, 0x0001_8000, 0.0),
    ]

    @Test(arguments: roundTrips)
    func roundTripTime(lsr: UInt32, dlsr: UInt32, now: UInt32, rttMs: Double) throws {
        var statistics = RemoteReceiverStatistics()
        #expect(statistics.roundTripTimeMs == nil)
        statistics.update(
            fractionLost: 0, cumulativeLost: 0, jitter: 0, lastSenderReport: lsr,
            delaySinceLastSenderReport: dlsr, nowNTPMiddle32: now)
        let measured = try #require(statistics.roundTripTimeMs)
        #expect(abs(measured - rttMs) < 0.001)
    }

    @Test func reportWithoutSenderReportHasNoRoundTripTime() {
        var statistics = RemoteReceiverStatistics()
        statistics.update(
            fractionLost: 64, cumulativeLost: 12, jitter: 345, lastSenderReport: 0x0001_0000,
            delaySinceLastSenderReport: 0x0000_8000, nowNTPMiddle32: 0x0001_C000)
        #expect(statistics.roundTripTimeMs == 250)
        statistics.update(
            fractionLost: 0, cumulativeLost: 12, jitter: 300, lastSenderReport: 0,
            delaySinceLastSenderReport: 0, nowNTPMiddle32: 0x0002_0000)
        #expect(statistics.roundTripTimeMs == nil)
        #expect(statistics.reportsReceived == 2)
    }

    /// Fraction-lost fields with the share of one they stand for.
    static let fractions: [(field: UInt8, fraction: Double)] = [(0, 0), (64, 0.25), (128, 0.5), (255, 255.0 / 256)]

    @Test(arguments: fractions)
    func fractionLostIsAShareOfOne(field: UInt8, fraction: Double) {
        var statistics = RemoteReceiverStatistics()
        statistics.update(
            fractionLost: field, cumulativeLost: -3, jitter: 90, lastSenderReport: 0,
            delaySinceLastSenderReport: 0, nowNTPMiddle32: 0)
        #expect(statistics.fractionLost == fraction)
        #expect(statistics.cumulativeLost == -3)
        #expect(statistics.jitter == 90)
    }
}
