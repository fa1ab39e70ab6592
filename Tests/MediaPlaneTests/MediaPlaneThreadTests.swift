import Foundation
import Synchronization
import Testing

@testable import MediaPlane

/// The data-plane threads carry names, so top, ps and perf tell them apart from Swift's pool, and
/// run at the relay's own priority whatever the thread that started them ran at.
@Suite struct MediaPlaneThreadTests {
    /// The nice value of the calling thread (`who` 0) or of the process's main thread.
    static func niceValue(ofThread: Bool) -> Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), ofThread ? 0 : id_t(getpid()))
    }

    @Test(.enabled(if: niceValue(ofThread: false) <= 17, "the relay's nice value leaves no room above it"))
    func dataPlaneThreadTakesTheRelayPriorityNotItsCreators() {
        let relay = Self.niceValue(ofThread: false)
        let observed = Mutex<(creator: Int32, dataPlane: Int32)?>(nil)
        // A creator at a lower priority than the relay's, as a pool thread may be: raising the
        // nice value needs no privilege, and this thread is the test's own.
        let creator = DataPlaneThread()
        let started = creator.start(name: "pkrelay-test") {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, relay + 2)
            let creatorValue = Self.niceValue(ofThread: true)
            let dataPlane = DataPlaneThread()
            let value = Mutex<Int32>(-100)
            guard dataPlane.start(name: "pkrelay-test", { value.withLock { $0 = Self.niceValue(ofThread: true) } }) else { return }
            dataPlane.join()
            observed.withLock { $0 = (creatorValue, value.withLock { $0 }) }
        }
        #expect(started)
        creator.join()
        let values = observed.withLock { $0 }
        #expect(values?.creator == relay + 2)
        #expect(values?.dataPlane == relay)
    }

    @Test func everyShardThreadIsNamed() throws {
        var configuration = MediaPlaneConfiguration()
        configuration.threads = 2
        configuration.webRTCPort = nil
        configuration.portRange = 47_900...47_909
        let plane = try MediaPlane(configuration: configuration)
        plane.start()
        defer { plane.stop() }
        for shard in plane.shards {
            // The thread records its kernel id right after naming itself: wait (bounded) for it.
            var id: Int32 = 0
            for _ in 0..<400 where id == 0 {
                id = shard.thread.kernelThreadID.load(ordering: .acquiring)
                if id == 0 { Thread.sleep(forTimeInterval: 0.005) }
            }
            let name = try String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(name == "pkrelay-media\(shard.index)")
        }
    }
}
