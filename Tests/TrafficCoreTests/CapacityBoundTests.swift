import Testing

@testable import TrafficCore

/// What ended a search, and that a tool-bound step is never the relay's capacity.
struct CapacityBoundTests {
    @Test func aToolBoundStepEndsTheSearchAndIsNotTheCapacity() {
        var search = CapacitySearch(start: 2, step: 2, limit: 100)
        search.record(streams: 8, packetsPerSecond: 1000, lossPercent: 0, p99Ms: 3, relayBound: false)
        // Within the loss and latency limits, but the tool was the bound.
        search.record(streams: 16, packetsPerSecond: 2000, lossPercent: 0, p99Ms: 3, toolBound: ["late"], relayBound: false)
        #expect(search.nextLoad == nil)
        #expect(search.steps[1].passed == false)
        #expect(search.steps[1].toolBound)
        #expect(search.steps[1].reason?.contains("tool-bound") == true)
        #expect(search.lastPassing?.load == 2)
        #expect(search.result.endedBy == .tool)
    }

    @Test(arguments: [
        (true as Bool?, CapacityBound.relay),
        (false as Bool?, CapacityBound.neither),
        (nil as Bool?, CapacityBound.unverified),
    ])
    func theRelaySideNamesAFailingStep(relayBound: Bool?, expected: CapacityBound) {
        var search = CapacitySearch(start: 2, step: 2, limit: 100)
        search.record(streams: 8, packetsPerSecond: 1000, lossPercent: 0, p99Ms: 3, relayBound: relayBound)
        search.record(streams: 16, packetsPerSecond: 2000, lossPercent: 2, p99Ms: 3, relayBound: relayBound)
        #expect(search.result.endedBy == expected)
        #expect(search.result.lastPassing?.load == 2)
    }

    @Test func setupFailuresAndTheLimitAreNamed() {
        var failing = CapacitySearch(start: 2, step: 2, limit: 100)
        failing.record(streams: 8, packetsPerSecond: 1000, lossPercent: 0, p99Ms: 3)
        failing.record(streams: 0, packetsPerSecond: 0, lossPercent: 0, p99Ms: 0, setupFailed: "no ports")
        #expect(failing.result.endedBy == .setup)
        var limited = CapacitySearch(start: 2, step: 2, limit: 2)
        limited.record(streams: 8, packetsPerSecond: 1000, lossPercent: 0, p99Ms: 3)
        #expect(limited.result.endedBy == .limit)
    }

    /// Both late: the relay's own saturation decides, and the last passing step (not tool-bound) stands.
    @Test func aSaturatedRelayOutweighsALateTool() {
        var search = CapacitySearch(start: 2, step: 2, limit: 100)
        search.record(streams: 8, packetsPerSecond: 1000, lossPercent: 0, p99Ms: 3, relayBound: false)
        search.record(streams: 16, packetsPerSecond: 2000, lossPercent: 0, p99Ms: 70, toolBound: ["late"], relayBound: true)
        #expect(search.result.endedBy == .relay)
        #expect(search.result.lastPassing?.load == 2)
        #expect(search.steps[1].toolBound)
    }
}
