import RTPWire
import StreamCore
import Testing

/// The send-side bandwidth estimate of a subscriber transport, against the tests' impaired link
/// (rate cap, 300 ms tail-drop queue, 50 ms each way) on a scripted clock, with PKRelay's own feedback recorder, writer and parser in the loop.
@Suite struct SendSideBandwidthEstimatorTests {
    static func configuration(maximumBps: Double = 5_000_000) -> SendSideBandwidthEstimator.Configuration {
        var configuration = SendSideBandwidthEstimator.Configuration()
        configuration.maximumBps = maximumBps
        return configuration
    }

    @Test("behind a cap the estimate is within 25 % of it after 5 s and does not drift above it", arguments: [300_000.0, 1_000_000, 3_000_000])
    func convergesToTheCap(capacityBps: Double) throws {
        let simulation = CongestionSimulation(configuration: Self.configuration(), impairment: CongestionSimulation.impairment(capacityBps: Int(capacityBps)))
        try simulation.run(forUs: 30_000_000)
        let settled = simulation.samples(fromSecond: 5, toSecond: 30)
        let estimates = settled.map(\.estimateBps)
        let low = try #require(estimates.min())
        let high = try #require(estimates.max())
        let trace = simulation.samples.enumerated().filter { $0.offset % 5 == 0 }.map { Int($0.element.estimateBps / 1000) }
        #expect(low >= 0.75 * capacityBps, "lowest \(Int(low)) bit/s; kbit/s every 0.5 s: \(trace)")
        #expect(high <= 1.25 * capacityBps, "highest \(Int(high)) bit/s; kbit/s every 0.5 s: \(trace)")
        #expect(simulation.estimator.snapshot.probeResults > 0)
    }

    @Test("a sender at the estimate keeps the queue short and loses little once settled", arguments: [300_000.0, 1_000_000, 3_000_000])
    func queueAndLossStaySmall(capacityBps: Double) throws {
        let simulation = CongestionSimulation(configuration: Self.configuration(), impairment: CongestionSimulation.impairment(capacityBps: Int(capacityBps)))
        try simulation.run(forUs: 5_000_000)
        let sentBefore = simulation.sent
        let droppedBefore = simulation.dropped
        try simulation.run(forUs: 25_000_000)
        let settled = simulation.samples(fromSecond: 5, toSecond: 30)
        let meanQueueUs = settled.map(\.queueDelayUs).reduce(0, +) / Int64(settled.count)
        let loss = Double(simulation.dropped - droppedBefore) / Double(simulation.sent - sentBefore)
        #expect(meanQueueUs < 100_000, "mean queueing delay \(meanQueueUs) µs")
        #expect(loss < 0.02, "loss \(loss)")
    }

    @Test("after a cap lifts, probing brings the estimate up to the transport's maximum within 10 s")
    func recoversThroughProbing() throws {
        let simulation = CongestionSimulation(
            configuration: Self.configuration(maximumBps: 3_000_000), impairment: CongestionSimulation.impairment(capacityBps: 300_000))
        try simulation.run(forUs: 15_000_000)
        #expect(simulation.estimator.estimateBps < 375_000)
        let probesBefore = simulation.estimator.snapshot.probeClusters
        simulation.reconfigure(CongestionSimulation.impairment(capacityBps: 20_000_000))
        try simulation.run(forUs: 10_000_000)
        let trace = simulation.samples(fromSecond: 14, toSecond: 25).map { Int($0.estimateBps / 1000) }
        #expect(simulation.estimator.estimateBps >= 0.75 * 3_000_000, "kbit/s every 0.1 s after the lift: \(trace)")
        #expect(simulation.estimator.snapshot.probeClusters > probesBefore)
    }

    @Test("the estimate starts by probing: a fast link is found within 2 s, not after minutes of 8 % a second")
    func startsByProbing() throws {
        let simulation = CongestionSimulation(
            configuration: Self.configuration(maximumBps: 2_500_000), impairment: CongestionSimulation.impairment(capacityBps: 50_000_000))
        try simulation.run(forUs: 2_000_000)
        #expect(simulation.estimator.estimateBps >= 0.75 * 2_500_000, "\(simulation.estimator.snapshot)")
        #expect(simulation.probePackets > 0)
    }
}
