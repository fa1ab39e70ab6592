import StreamCore
import Testing

@Suite struct ReceptionStatisticsTests {
    /// Feeds packets 20 ms and 1800 ticks (90 kHz) apart, in the given sequence-number order.
    func feed(_ sequenceNumbers: [UInt16], into statistics: inout ReceptionStatistics) {
        for (index, sequenceNumber) in sequenceNumbers.enumerated() {
            statistics.record(
                sequenceNumber: sequenceNumber, timestamp: UInt32(sequenceNumber) &* 1800,
                arrivalMs: Int64(index) * 20)
        }
    }

    /// Makes a report and returns its fraction-lost field.
    func reportFractionLost(_ statistics: inout ReceptionStatistics) -> UInt8 {
        statistics.makeReportFractionLost()
    }

    @Test func startsEmpty() {
        var statistics = ReceptionStatistics(clockRate: 90_000)
        #expect(statistics.packetsReceived == 0)
        #expect(statistics.expectedPackets == 0)
        #expect(statistics.cumulativeLost == 0)
        #expect(statistics.extendedHighestSequenceNumber == 0)
        #expect(statistics.jitter == 0)
        let fractionLost = statistics.makeReportFractionLost()
        #expect(fractionLost == 0)
    }

    /// Arrival orders with the counters they must produce.
    static let arrivalOrders:
        [(
            label: String, sequenceNumbers: [UInt16], received: UInt64, expected: UInt64,
            lost: Int64, extendedHighest: UInt32
        )] = [
            ("in order", Array(0...9), 10, 10, 0, 9),
            ("two lost", [0, 1, 2, 4, 5, 6, 8, 9], 8, 10, 2, 9),
            ("duplicates", [0, 1, 1, 2, 2, 2, 3], 4, 4, 0, 3),
            ("reordered", [10, 12, 11, 14, 13], 5, 5, 0, 14),
            ("reordered across wrap-around", [65_533, 65_534, 0, 65_535, 1, 2], 6, 6, 0, 0x1_0002),
            ("duplicate across wrap-around", [65_534, 65_535, 0, 65_535, 1, 0], 4, 4, 0, 0x1_0001),
            ("loss across wrap-around", [65_534, 65_535, 2], 3, 5, 2, 0x1_0002),
            ("late packet from before the first", [10, 11, 9], 3, 3, 0, 11),
            ("late packet from before the first, across wrap-around", [1, 2, 65_535], 3, 4, 1, 2),
            ("stray packet far away is ignored", [100, 101, 30_000, 102], 3, 3, 0, 102),
            ("confirmed jump restarts counting", [100, 101, 10_000, 10_001, 10_002], 2, 2, 0, 10_002),
            ("jump within the dropout limit is loss", [0, 2999], 2, 3000, 2998, 2999),
        ]

    @Test(arguments: arrivalOrders.indices)
    func countersFollowArrivalOrder(caseIndex: Int) {
        let order = Self.arrivalOrders[caseIndex]
        var statistics = ReceptionStatistics(clockRate: 90_000)
        feed(order.sequenceNumbers, into: &statistics)
        #expect(statistics.packetsReceived == order.received, "\(order.label)")
        #expect(statistics.expectedPackets == order.expected, "\(order.label)")
        #expect(statistics.cumulativeLost == order.lost, "\(order.label)")
        #expect(statistics.extendedHighestSequenceNumber == order.extendedHighest, "\(order.label)")
    }

    @Test func cyclesAccumulateOverManyWrapArounds() {
        var statistics = ReceptionStatistics(clockRate: 8000)
        var sequenceNumber: UInt16 = 65_000
        for index in 0..<(3 * 65_536) {
            statistics.record(sequenceNumber: sequenceNumber, timestamp: UInt32(index) * 160, arrivalMs: Int64(index) * 20)
            sequenceNumber &+= 1
        }
        #expect(statistics.extendedHighestSequenceNumber == 3 << 16 | 64_999)
        #expect(statistics.packetsReceived == 3 * 65_536)
        #expect(statistics.cumulativeLost == 0)
        #expect(statistics.jitter == 0)
    }

    @Test func fractionLostCoversOnlyTheInterval() {
        var statistics = ReceptionStatistics(clockRate: 90_000)
        // Interval 1: 0...3 expected, 2 missing -> 1/4.
        feed([0, 1, 3], into: &statistics)
        #expect(reportFractionLost(&statistics) == 64)
        // Interval 2: 4...8, nothing missing.
        for sequenceNumber in UInt16(4)...8 {
            statistics.record(sequenceNumber: sequenceNumber, timestamp: 0, arrivalMs: 0)
        }
        #expect(reportFractionLost(&statistics) == 0)
        // Interval 3: 9...18, 10 expected, 13 missing and a duplicate of 9 -> 1/10.
        for sequenceNumber: UInt16 in [9, 10, 11, 12, 14, 15, 9, 16, 17, 18] {
            statistics.record(sequenceNumber: sequenceNumber, timestamp: 0, arrivalMs: 0)
        }
        #expect(reportFractionLost(&statistics) == 25)
        // Interval 4: the missing packet 2 arrives late; the fraction never goes negative.
        statistics.record(sequenceNumber: 2, timestamp: 0, arrivalMs: 0)
        #expect(reportFractionLost(&statistics) == 0)
        #expect(statistics.cumulativeLost == 1)
    }

    @Test func fractionLostOfEverythingAfterTheFirstSaturates() {
        var statistics = ReceptionStatistics(clockRate: 90_000)
        statistics.record(sequenceNumber: 0, timestamp: 0, arrivalMs: 0)
        _ = statistics.makeReportFractionLost()
        statistics.record(sequenceNumber: 1000, timestamp: 0, arrivalMs: 0)
        // 1000 expected, 999 lost.
        #expect(reportFractionLost(&statistics) == 255)
    }

    @Test func jitterOfConstantRateStreamWithOneDelayedPacket() {
        var statistics = ReceptionStatistics(clockRate: 90_000)
        var jitters: [UInt32] = []
        for index in 0..<20 {
            // Packet 10 arrives 10 ms (900 ticks) late; all others exactly on time.
            let delayMs: Int64 = index == 10 ? 10 : 0
            statistics.record(
                sequenceNumber: UInt16(40_000 + index), timestamp: 7_000 + UInt32(index) * 1800,
                arrivalMs: 5_000_000 + Int64(index) * 20 + delayMs)
            jitters.append(statistics.jitter)
        }
        #expect(jitters[0..<10].allSatisfy { $0 == 0 })
        // J += (|D| - J) / 16 with |D| = 900: 56.25, then 108.98 when the next packet is on time
        // again, then decaying by 15/16 per packet.
        #expect(jitters[10] == 56)
        #expect(jitters[11] == 109)
        #expect(jitters[12] == 102)
        for index in 12..<19 { #expect(jitters[index + 1] < jitters[index]) }
        #expect(jitters[19] > 0)
    }

    @Test func duplicatesDoNotDisturbJitter() {
        var statistics = ReceptionStatistics(clockRate: 90_000)
        statistics.record(sequenceNumber: 1, timestamp: 0, arrivalMs: 0)
        statistics.record(sequenceNumber: 2, timestamp: 1800, arrivalMs: 20)
        statistics.record(sequenceNumber: 2, timestamp: 1800, arrivalMs: 300)
        statistics.record(sequenceNumber: 3, timestamp: 3600, arrivalMs: 40)
        #expect(statistics.jitter == 0)
        #expect(statistics.packetsReceived == 3)
    }
}
