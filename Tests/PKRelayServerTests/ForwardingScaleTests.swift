import Foundation
import PKRelayClient
import PKRelayServer
import Protocol
import RoomEngine
import SecureTransport
import Testing

/// Many forwards at once, and nothing left behind when their owners disconnect together.
@Suite("Fifty forwards end to end", .timeLimit(.minutes(1)))
struct ForwardingScaleTests {
    static let count = 50
    static let watched = [0, 7, 13, 21, 34, 49]

    @Test("50 anchors forward into one stage room; all disconnect; nothing is left")
    func fiftyForwardsIntoOneRoom() async throws {
        // Each anchor sends one keyframe when it starts; on a loaded machine starting fifty can
        // take longer than the 10 s keep-alive, which would unpublish the first ones before
        // their forwards start. The keep-alive is not what this test is about.
        try await TestRelay.with({ $0.rooms.keepAliveTimeoutMilliseconds = 120_000 }) { relay in
            let viewer = try await Viewer.join(relay, room: "stage", user: "viewer", autoSubscribe: false)
            let viewerMark = await viewer.mark()
            var anchors: [TestPublisher] = []
            for index in 0..<Self.count {
                let anchor = try await TestPublisher.start(
                    relay, room: "room\(index)", user: "a\(index)", profile: .aeadAES128GCM,
                    videoSSRC: 0x5000_0000 + UInt32(index) * 2, audioSSRC: 0x5000_0001 + UInt32(index) * 2)
                try anchor.sendFrame(keyframe: true)
                anchors.append(anchor)
            }
            // Every anchor forwards into the stage.
            for (index, anchor) in anchors.enumerated() {
                let result: ForwardStreamResult = try await anchor.client.request(
                    "startForwardStreamToRooms",
                    StartForwardParams(
                        roomId: "room\(index)", targets: [ForwardTargetParams(roomId: "stage", token: TestRelay.token(room: "stage", user: "a\(index)"))]))
                #expect(result.infos == [ForwardStreamStateInfo(roomId: "stage", state: ForwardState.success.rawValue, error: 0)], "a\(index): \(result)")
            }
            try await Self.waitForAll(viewer, from: viewerMark, "appear", timeout: .seconds(10)) { ForwardingHelpers.appeared("a\($0)", from: "room\($0)") }
            #expect(try await relay.metric("pkrelay_forwards") == UInt64(Self.count))

            // The viewer subscribes to some of them, and gets their media.
            var tracks: [Int: TrackSSRCs] = [:]
            for index in Self.watched {
                let result = try await viewer.subscribe(to: "a\(index)")
                #expect(result.state == .success && result.tracks.count == 2, "a\(index): \(result)")
                tracks[index] = TrackSSRCs(video: result.tracks.first { $0.kind == .video }?.ssrc, audio: result.tracks.first { $0.kind == .audio }?.ssrc)
            }
            let starts = anchors.map { $0.sentVideo.count }
            for round in 0..<4 {
                for anchor in anchors { try anchor.sendFrame(keyframe: round == 1) }
                try await Task.sleep(for: .milliseconds(5))
            }
            for index in Self.watched {
                let ssrcs = tracks[index]!
                let sent = Array(anchors[index].sentVideo[starts[index]...])
                try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "viewer: a\(index)'s media") { packets in
                    packets.contains { $0.ssrc == ssrcs.video && $0.payload == sent.last!.payload }
                }
                ForwardingHelpers.checkRun(viewer.received(ssrcs.video), sent: sent, video: true, "a\(index) video at the stage")
            }
            let before = try await ForwardingHelpers.waitForOverview(relay, "the full picture") { $0.forwardTargets == Self.count }
            #expect(before.subscriptions == Self.watched.count && before.publications == 2 * Self.count, "\(before)")

            // All fifty disconnect at once.
            let leaveMark = await viewer.mark()
            let clients = anchors.map(\.client)
            // (Their UDP endpoints close afterwards: each close waits for its receive thread.)
            let disconnectStart = ContinuousClock.now
            await withTaskGroup(of: Void.self) { group in
                for client in clients { group.addTask { await client.close() } }
            }
            let closed = ContinuousClock.now - disconnectStart
            // The engine ends every forward in the step that handles the disconnect (its scripted
            // scenario shows that); here the point is that all fifty really leave the stage. The
            // time is printed as a measurement: a loaded machine must not fail the suite.
            try await Self.waitForAll(viewer, from: leaveMark, "leave", timeout: .seconds(10)) { ForwardingHelpers.vanished("a\($0)") }
            let gone = ContinuousClock.now - disconnectStart
            print("50-forward teardown: every forwarded user left the stage \(gone) after the disconnects began (closing the 50 WebSockets took \(closed))")
            for anchor in anchors { anchor.endpoint.close() }
            let cleanedAt = Int64(Date().timeIntervalSince1970 * 1000)

            // Nothing left behind, in the engine and (after its next refresh) in the media plane.
            let after = try await ForwardingHelpers.waitForOverview(relay, "an empty relay apart from the viewer", timeout: .seconds(5)) {
                $0.reportGeneratedAtMs > cleanedAt && $0.transports == 1 && $0.reportSources == 0 && $0.reportSinks.isEmpty
            }
            #expect(after.forwardTargets == 0 && after.links == 0 && after.publications == 0 && after.subscriptions == 0, "\(after)")
            #expect(after.users == 1, "only the viewer is left: \(after)")
            #expect(after.reportTransports == [viewer.endpoint.transportId], "only the viewer's transport: \(after)")
            #expect(try await relay.metric("pkrelay_forwards") == 0)
            #expect(try await relay.metric("pkrelay_transports") == 1)
            let stats: GetStatsResult = try await viewer.client.request("getStats", GetStatsParams())
            #expect(stats.subscribed.isEmpty && stats.transports.map(\.transportId) == [viewer.endpoint.transportId], "\(stats)")

            await viewer.close()
        }
    }

    /// Waits until, for every anchor index, the viewer's events after `mark` contain `steps(index)` in order.
    static func waitForAll(_ viewer: Viewer, from mark: Int, _ what: String, timeout: Duration, _ steps: (Int) -> [(ReceivedEvent) -> Bool]) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let log = Array(await viewer.client.events().dropFirst(mark))
            let missing = (0..<count).filter { ForwardingHelpers.match(log, steps($0)) == nil }
            if missing.isEmpty { return }
            guard ContinuousClock.now < deadline else {
                throw TimeoutError(duration: timeout, what: "viewer: \(what) of \(missing.count) anchors (\(missing.prefix(10).map { "a\($0)" }))")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
