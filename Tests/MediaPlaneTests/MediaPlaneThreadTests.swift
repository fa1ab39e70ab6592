import Foundation
import Testing

@testable import MediaPlane

/// The data-plane threads carry names, so top, ps and perf tell them apart from Swift's pool.
@Suite struct MediaPlaneThreadTests {
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
