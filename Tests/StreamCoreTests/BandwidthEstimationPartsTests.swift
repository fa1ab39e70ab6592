import StreamCore
import Testing

/// The parts of the send-side estimator one at a time, with scripted inputs.
@Suite struct BandwidthEstimationPartsTests {
    @Test func theSentLogNumbersPacketsInOrderAcrossTheWrap() {
        let log = SentPacketLog()
        var last: UInt16 = 0
        for index in 0..<70_000 { last = log.recordSent(bytes: 100, sendUs: Int64(index)) }
        #expect(last == UInt16(truncatingIfNeeded: 69_999))
        #expect(log.nextSequence == 70_000)
        let estimator = SendSideBandwidthEstimator()
        for index in 0..<3 { #expect(estimator.recordSent(bytes: 10, sendUs: Int64(index)) == UInt16(index)) }
    }

    /// Group deltas with the arrival spacing growing `growthUs` past the send spacing each time:
    /// a queue that fills.
    static func feed(_ detector: inout TrendlineDelayDetector, count: Int, growthUs: Int64) -> [BandwidthUsage] {
        var usages: [BandwidthUsage] = []
        for index in 0..<count {
            let delta = InterArrivalGrouping.Delta(sendDeltaUs: 10_000, arrivalDeltaUs: 10_000 + growthUs, arrivalUs: Int64(index) * 10_000)
            usages.append(detector.update(delta))
        }
        return usages
    }

    @Test func steadyDelayIsNormalAGrowingQueueIsOverusingADrainingOneUnderusing() {
        var steady = TrendlineDelayDetector()
        #expect(Self.feed(&steady, count: 100, growthUs: 0).allSatisfy { $0 == .normal })
        var filling = TrendlineDelayDetector()
        #expect(Self.feed(&filling, count: 60, growthUs: 2_000).contains(.overusing))
        var draining = TrendlineDelayDetector()
        #expect(Self.feed(&draining, count: 60, growthUs: -2_000).contains(.underusing))
    }

    @Test func groupsCloseAfterFiveMillisecondsOfSendingAndBurstsStayTogether() {
        var grouping = InterArrivalGrouping()
        #expect(grouping.add(sendUs: 0, arrivalUs: 50_000) == nil)
        #expect(grouping.add(sendUs: 4_000, arrivalUs: 54_000) == nil)
        // A new group: no earlier one to compare with yet.
        #expect(grouping.add(sendUs: 10_000, arrivalUs: 60_000) == nil)
        let delta = grouping.add(sendUs: 20_000, arrivalUs: 75_000)
        #expect(delta == InterArrivalGrouping.Delta(sendDeltaUs: 6_000, arrivalDeltaUs: 6_000, arrivalUs: 60_000))
        // Sent 10 ms later but arriving right behind the group's last packet: a burst, same group.
        #expect(grouping.add(sendUs: 30_000, arrivalUs: 76_000) == nil)
    }

    @Test func overuseCutsToEightyFivePercentOfWhatArrivedThenHoldsThenGrows() {
        var control = AIMDRateControl(startBps: 1_000_000, minimumBps: 10_000, maximumBps: 10_000_000)
        control.update(usage: .overusing, acknowledgedBps: 800_000, rttUs: 100_000, nowUs: 0)
        #expect(control.bitrateBps == 680_000)
        control.update(usage: .underusing, acknowledgedBps: 800_000, rttUs: 100_000, nowUs: 100_000)
        #expect(control.bitrateBps == 680_000)
        control.update(usage: .normal, acknowledgedBps: 700_000, rttUs: 100_000, nowUs: 200_000)
        control.update(usage: .normal, acknowledgedBps: 700_000, rttUs: 100_000, nowUs: 1_200_000)
        // Near the capacity the last cut found: additive, about a packet per response time.
        #expect(control.bitrateBps > 680_000 && control.bitrateBps < 680_000 * 1.08)
        // Never more than 1.5 times what arrives plus 10 kbit/s.
        for step in 0..<100 { control.update(usage: .normal, acknowledgedBps: 100_000, rttUs: 100_000, nowUs: 2_200_000 + Int64(step) * 1_000_000) }
        #expect(control.bitrateBps <= max(680_000 * 1.08, 160_000))
    }

    @Test func lossUnderTwoPercentGrowsOverTenPercentCutsByHalfTheLossOncePerRoundTrip() {
        var control = LossBasedRateControl(startBps: 1_000_000, minimumBps: 10_000, maximumBps: 10_000_000)
        control.record(received: 100, lost: 0, currentBps: 1_000_000, rttUs: 100_000, nowUs: 0)
        control.record(received: 100, lost: 1, currentBps: 1_000_000, rttUs: 100_000, nowUs: 1_000_000)
        #expect(abs(control.bitrateBps - 1_080_000) < 1)
        control.record(received: 95, lost: 5, currentBps: 1_000_000, rttUs: 100_000, nowUs: 2_000_000)
        #expect(abs(control.bitrateBps - 1_080_000) < 1, "2-10 %: held")
        control.record(received: 80, lost: 20, currentBps: 900_000, rttUs: 100_000, nowUs: 3_000_000)
        #expect(abs(control.bitrateBps - 810_000) < 1, "cut from the lower current estimate by half of 20 %")
        control.record(received: 80, lost: 20, currentBps: 810_000, rttUs: 100_000, nowUs: 3_200_000)
        #expect(abs(control.bitrateBps - 810_000) < 1, "not again within a round trip plus 300 ms")
        // Fewer than 20 packets: nothing is concluded yet.
        control.record(received: 5, lost: 5, currentBps: 810_000, rttUs: 100_000, nowUs: 5_000_000)
        #expect(abs(control.bitrateBps - 810_000) < 1)
    }

    @Test func aProbeIsTheSmallerOfItsSendAndArrivalRatesAndUnderTheArrivalRateWhenHeldBack() throws {
        var meter = ProbeResultMeter()
        // 10 packets of 1000 bytes sent over 9 ms: 8 Mbit/s of sending (the last packet's bytes left out).
        for index in 0..<10 { meter.recordSent(cluster: 3, bytes: 1000, sendUs: Int64(index) * 1_000) }
        // They arrive over 18 ms: 4 Mbit/s (the first packet's bytes left out), under 90 % of 8.
        for index in 0..<7 { meter.recordReport(cluster: 3, bytes: 1000, arrivalUs: 100_000 + Int64(index) * 2_000) }
        let early = meter.takeResult()
        #expect(early == nil, "under 80 % reported")
        for index in 7..<10 { meter.recordReport(cluster: 3, bytes: 1000, arrivalUs: 100_000 + Int64(index) * 2_000) }
        let taken = meter.takeResult()
        let result = try #require(taken)
        #expect(result.clusterId == 3 && abs(result.bitrateBps - 0.95 * 4_000_000) < 1)
        let again = meter.takeResult()
        #expect(again == nil, "once")
    }

    @Test func aReceiverEstimateCapsAndReceiverReportLossCuts() {
        let estimator = SendSideBandwidthEstimator()
        estimator.onReceiverEstimate(bitrateBps: 100_000)
        #expect(estimator.estimateBps == 100_000)
        estimator.onReceiverEstimate(bitrateBps: 10_000_000)
        #expect(estimator.estimateBps == 300_000)
        // 25 % lost (64/256): cut by half of it.
        estimator.onReceiverReport(fractionLost: 64, rttUs: 80_000, nowUs: 1_000_000)
        #expect(abs(estimator.estimateBps - 300_000 * 0.875) < 1)
        #expect(estimator.snapshot.rttUs == 80_000)
    }

    @Test func probingStartsAtThreeAndSixTimesTheStartAndRepeatsWhileTheEstimateIsLow() throws {
        let estimator = SendSideBandwidthEstimator()
        #expect(estimator.nextProbe(nowUs: 0)?.targetBps == 900_000)
        #expect(estimator.nextProbe(nowUs: 0)?.targetBps == 1_800_000)
        #expect(estimator.nextProbe(nowUs: 1_000_000) == nil)
        let periodic = try #require(estimator.nextProbe(nowUs: 5_000_000))
        #expect(periodic.targetBps == 600_000 && periodic.id == 2)
    }
}
