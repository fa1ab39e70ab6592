import StreamCore
import Testing

@Suite struct MediaActivityMonitorTests {
    @Test(arguments: [
        (label: "silent since creation, 9.999 s", mediaMs: [Int64](), nowMs: Int64(10_999), timedOut: false),
        (label: "silent since creation, 10 s", mediaMs: [], nowMs: 11_000, timedOut: true),
        (label: "media 5 s ago", mediaMs: [2_000, 6_000], nowMs: 11_000, timedOut: false),
        (label: "media stopped 10 s ago", mediaMs: [2_000, 3_000], nowMs: 13_000, timedOut: true),
        (label: "media stopped 9.999 s ago", mediaMs: [2_000, 3_000], nowMs: 12_999, timedOut: false),
    ])
    func defaultTimeout(label: String, mediaMs: [Int64], nowMs: Int64, timedOut: Bool) {
        var monitor = MediaActivityMonitor(createdMs: 1_000)
        for arrival in mediaMs { monitor.mediaReceived(nowMs: arrival) }
        #expect(monitor.isTimedOut(nowMs: nowMs) == timedOut, "\(label)")
        #expect(monitor.lastMediaMs == mediaMs.last)
    }

    @Test func customTimeoutAndOutOfOrderTimes() {
        var monitor = MediaActivityMonitor(createdMs: 0)
        #expect(monitor.lastMediaMs == nil)
        #expect(!monitor.isTimedOut(nowMs: 1_999, timeoutMs: 2_000))
        #expect(monitor.isTimedOut(nowMs: 2_000, timeoutMs: 2_000))
        monitor.mediaReceived(nowMs: 5_000)
        // A time from a slower path must not move the last activity backwards.
        monitor.mediaReceived(nowMs: 4_000)
        #expect(monitor.lastMediaMs == 5_000)
        #expect(!monitor.isTimedOut(nowMs: 6_000, timeoutMs: 2_000))
        #expect(monitor.isTimedOut(nowMs: 7_000, timeoutMs: 2_000))
    }
}
