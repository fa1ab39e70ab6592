import Testing

@testable import TrafficCore

/// Loss counting from scripted sequence numbers.
struct SequenceLossCounterTests {
    @Test func inOrderStreamHasNoLoss() {
        var counter = SequenceLossCounter()
        for number in UInt16(100)..<200 { counter.record(number) }
        #expect(counter.received == 100)
        #expect(counter.expected == 100)
        #expect(counter.lost == 0)
    }

    @Test func countsLossAcrossWrapAround() {
        var counter = SequenceLossCounter()
        var number: UInt16 = 65_530
        var sent = 0
        for index in 0..<20 {
            if index != 7 && index != 8 { counter.record(number) }
            number &+= 1
            sent += 1
        }
        #expect(counter.expected == 20)
        #expect(counter.received == 18)
        #expect(counter.lost == 2)
        #expect(counter.highest == 65_530 + 19)
    }

    @Test func gapReportsTheMissingNumbers() {
        var counter = SequenceLossCounter()
        counter.record(65_534)
        let arrival = counter.record(2)
        #expect(arrival == .advanced(missing: 65_535...65_537))
        #expect(counter.lost == 3)
        #expect(!counter.hasReceived(65_536))
    }

    @Test func duplicatesAreNotCountedTwice() {
        var counter = SequenceLossCounter()
        for number: UInt16 in [1, 2, 2, 3, 3, 3, 4] { counter.record(number) }
        #expect(counter.received == 4)
        #expect(counter.duplicates == 3)
        #expect(counter.lost == 0)
    }

    @Test func reorderedPacketsFillTheirGap() {
        var counter = SequenceLossCounter()
        #expect(counter.record(10) == .first)
        #expect(counter.record(12) == .advanced(missing: 11...11))
        #expect(counter.lost == 1)
        #expect(counter.record(11) == .late)
        #expect(counter.lost == 0)
        #expect(counter.late == 1)
        #expect(counter.record(11) == .duplicate)
    }

    @Test func reorderingAcrossWrapAroundAndBeforeTheFirstPacket() {
        var counter = SequenceLossCounter()
        counter.record(0)
        #expect(counter.record(65_535) == .late)
        #expect(counter.expected == 2)
        #expect(counter.lost == 0)
        counter.record(3)
        counter.record(1)
        #expect(counter.lost == 1)
        #expect(counter.record(2) == .late)
        #expect(counter.lost == 0)
        #expect(counter.expected == 5)
    }

    @Test func packetsOlderThanTheWindowAreSetAside() {
        var counter = SequenceLossCounter()
        counter.record(0)
        counter.record(5000)
        #expect(counter.record(10) == .tooOld)
        #expect(counter.tooOld == 1)
        #expect(counter.received == 2)
    }

    @Test func longRunWrapsManyTimes() {
        var counter = SequenceLossCounter()
        var number: UInt16 = 40_000
        for index in 0..<200_000 {
            if index % 1000 != 999 { counter.record(number) }
            number &+= 1
        }
        #expect(counter.expected == 200_000 - 1)  // the last packet (index 199999) was dropped and is not yet expected
        #expect(counter.lost == 199)
        #expect(abs(counter.lossFraction - 199.0 / 199_999.0) < 1e-12)
    }
}
