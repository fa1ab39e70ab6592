import Testing

@testable import TrafficCore

/// The stepping of `--find-max`.
struct CapacitySearchTests {
    @Test func stepsUpUntilTheFirstFailure() {
        var search = CapacitySearch(start: 2, step: 2, limit: 100)
        #expect(search.nextLoad == 2)
        search.record(streams: 8, packetsPerSecond: 1000, lossPercent: 0, p99Ms: 3)
        #expect(search.nextLoad == 4)
        search.record(streams: 16, packetsPerSecond: 2000, lossPercent: 0.05, p99Ms: 10)
        #expect(search.nextLoad == 6)
        search.record(streams: 24, packetsPerSecond: 3000, lossPercent: 0.5, p99Ms: 10)
        #expect(search.nextLoad == nil)
        #expect(search.lastPassing?.load == 4)
        #expect(search.steps.map(\.passed) == [true, true, false])
        #expect(search.steps[2].reason?.contains("loss") == true)
        #expect(search.result.reachedLimit == false)
    }

    @Test func latencyAloneFailsAStep() {
        var search = CapacitySearch(start: 10, step: 10, limit: 100)
        search.record(streams: 1, packetsPerSecond: 1, lossPercent: 0, p99Ms: 50)
        search.record(streams: 1, packetsPerSecond: 1, lossPercent: 0, p99Ms: 50.5)
        #expect(search.lastPassing?.load == 10)
        #expect(search.steps[1].reason?.contains("p99") == true)
    }

    @Test func stopsAtTheLimitAndSaysSo() {
        var search = CapacitySearch(start: 1, step: 3, limit: 7)
        var loads: [Int] = []
        while let load = search.nextLoad {
            loads.append(load)
            search.record(streams: load, packetsPerSecond: 0, lossPercent: 0, p99Ms: 0)
        }
        #expect(loads == [1, 4, 7])
        #expect(search.result.reachedLimit)
        #expect(search.lastPassing?.load == 7)
    }

    @Test func setupFailureFailsTheStep() {
        var search = CapacitySearch(start: 4, step: 4, limit: 40)
        search.record(streams: 0, packetsPerSecond: 0, lossPercent: 0, p99Ms: 0, setupFailed: "-1080")
        #expect(search.lastPassing == nil)
        #expect(search.nextLoad == nil)
    }
}
