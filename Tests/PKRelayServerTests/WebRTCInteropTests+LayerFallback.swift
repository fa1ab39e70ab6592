import AdminAPI
import Foundation
import MediaPlane
import NetworkImpairment
import PKRelayClient
import Protocol
import Testing

@testable import PKRelayServer

/// Layer allocation with aiortc as the viewer: aiortc negotiates no transport-wide congestion
/// control, so the relay judges its downlink from its receiver reports alone, as it does an SRTP
/// client's. The viewer reaches the relay through an impairment relay whose downlink the test
/// caps; a dual-stream publisher (the Swift client, 1 Mbit/s big and 240 kbit/s small) sends. A
/// second aiortc viewer of the same publisher, on a clean link, keeps the big layer throughout.
extension RealClientInterop.WebRTCInteropTests {
    /// What the relay delivers to `user`'s first subscription, by the admin API.
    static func delivered(_ relay: TestRelay, room: String, user: String) async throws -> AdminSubscription? {
        let reply = try await AdminHTTPClient.send(
            port: relay.ports.admin, method: "GET", path: "/admin/v1/rooms/\(room)", token: AdminAPITests.adminToken(), headers: [:], body: nil)
        let detail = try JSONDecoder().decode(AdminRoomDetail.self, from: Data(reply.body.utf8))
        return detail.users.first { $0.userId == user }?.subscriptions.first
    }

    /// The layer the relay delivers to `user`'s first subscription.
    static func deliveredLayer(_ relay: TestRelay, room: String, user: String) async throws -> VideoStreamType? {
        try await delivered(relay, room: room, user: user)?.videoStreamType
    }

    /// Sends frame pairs at 50 a second (a keyframe of each layer every second) until the viewer
    /// is delivered `layer`, or `seconds` pass; returns the seconds it took, or nil.
    static func drive(
        _ publisher: DualStreamRelayTests.DualPublisher, relay: TestRelay, room: String, until layer: VideoStreamType, seconds: Double
    ) async throws -> Double? {
        try await drive(publisher, relay: relay, room: room, seconds: seconds) { $0?.videoStreamType == layer }
    }

    /// Sends frame pairs as above until what the viewer is delivered satisfies `done`, or `seconds` pass.
    static func drive(
        _ publisher: DualStreamRelayTests.DualPublisher, relay: TestRelay, room: String, seconds: Double, until done: (AdminSubscription?) -> Bool
    ) async throws -> Double? {
        let start = ContinuousClock.now
        var round = 0
        while ContinuousClock.now - start < .milliseconds(Int(seconds * 1000)) {
            try await publisher.send(1, bigKeyframes: round % 50 == 0 ? [0] : [], smallKeyframes: round % 50 == 25 ? [0] : [])
            if round % 25 == 0, done(try await delivered(relay, room: room, user: "viewer")) {
                let elapsed = ContinuousClock.now - start
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }
            round += 1
            try await Task.sleep(for: .milliseconds(16))
        }
        return nil
    }

    @Test(
        "an aiortc viewer behind a capped downlink falls back to the small layer from its receiver reports, and recovers when the cap lifts, while an uncapped one keeps the big layer",
        .enabled(if: enabled, reason))
    func aiortcViewerFallsBackAndRecovers() async throws {
        try await Self.withDirectory { directory in
            try await TestRelay.with { relay in
                let publisher = try await DualStreamRelayTests.DualPublisher(relay, room: "wl", user: "anchor")
                try await publisher.send(1, bigKeyframes: [0], smallKeyframes: [0])
                let webRTCPort = try #require(relay.server.media.webRTCPorts.first)
                let impairment = try ImpairmentRelay(target: "127.0.0.1", targetPort: UInt16(webRTCPort))
                defer { impairment.stop() }
                let viewer = try WebRTCPeerProcess(
                    "viewer", relay: relay, room: "wl", user: "viewer",
                    arguments: ["subscribe", "--publisher", "anchor", "--duration", "60", "--candidate-via", "127.0.0.1:\(impairment.port)"],
                    directory: directory)
                defer { viewer.kill() }
                // A second aiortc viewer of the same publisher, straight to the relay: its link
                // is clean, and its layer must not follow the capped one's.
                let clean = try WebRTCPeerProcess(
                    "clean", relay: relay, room: "wl", user: "clean", arguments: ["subscribe", "--publisher", "anchor", "--duration", "60"],
                    directory: directory)
                defer { clean.kill() }
                let onBig = try await Self.drive(publisher, relay: relay, room: "wl", until: .big, seconds: 20)
                #expect(onBig != nil, "the viewer never got the big layer; stderr:\n\(viewer.stderrTail)")

                impairment.set(LinkImpairment(rateBitsPerSecond: 400_000), for: .downlink)
                let down = try await Self.drive(publisher, relay: relay, room: "wl", until: .small, seconds: 20)
                #expect(down != nil, "no fallback within 20 s of a 400 kbit/s cap; stderr:\n\(viewer.stderrTail)")
                #expect(try await Self.deliveredLayer(relay, room: "wl", user: "clean") == .big, "the uncapped viewer lost the big layer")

                impairment.set(.none, for: .downlink)
                let up = try await Self.drive(publisher, relay: relay, room: "wl", until: .big, seconds: 40)
                #expect(up != nil, "no recovery within 40 s of the lift")
                #expect(try await Self.deliveredLayer(relay, room: "wl", user: "clean") == .big)
                let changes = try await relay.metrics([
                    "pkrelay_video_layer_changes_total{reason=\"fallback\"}", "pkrelay_video_layer_changes_total{reason=\"recovery\"}",
                ])
                print(
                    "aiortc viewer: fallback \(down.map { String(format: "%.1f", $0) } ?? "-") s after the cap, "
                        + "recovery \(up.map { String(format: "%.1f", $0) } ?? "-") s after the lift, \(changes), link \(impairment.statistics())")
                #expect((changes["pkrelay_video_layer_changes_total{reason=\"fallback\"}"] ?? 0) >= 1)
            }
        }
    }

    @Test(
        "an aiortc viewer that allows audio only: below the small layer its video pauses while its audio goes on, and resumes when the cap lifts",
        .enabled(if: enabled, reason))
    func aiortcViewerPausesVideoAndKeepsAudio() async throws {
        try await Self.withDirectory { directory in
            try await TestRelay.with { relay in
                let publisher = try await DualStreamRelayTests.DualPublisher(relay, room: "wa", user: "anchor", audio: true)
                try await publisher.send(1, bigKeyframes: [0], smallKeyframes: [0])
                let webRTCPort = try #require(relay.server.media.webRTCPorts.first)
                let impairment = try ImpairmentRelay(target: "127.0.0.1", targetPort: UInt16(webRTCPort))
                defer { impairment.stop() }
                let viewer = try WebRTCPeerProcess(
                    "viewer", relay: relay, room: "wa", user: "viewer",
                    arguments: [
                        "subscribe", "--publisher", "anchor", "--duration", "60", "--candidate-via", "127.0.0.1:\(impairment.port)", "--fallback-option", "2",
                    ],
                    directory: directory)
                defer { viewer.kill() }
                let onBig = try await Self.drive(publisher, relay: relay, room: "wa", until: .big, seconds: 20)
                #expect(onBig != nil, "the viewer never got the big layer; stderr:\n\(viewer.stderrTail)")

                // 100 kbit/s: under the small layer (about 240 kbit/s), over the audio (under 20 kbit/s).
                impairment.set(LinkImpairment(rateBitsPerSecond: 100_000), for: .downlink)
                let paused = try await Self.drive(publisher, relay: relay, room: "wa", seconds: 20) { $0?.videoEnabled == false }
                #expect(paused != nil, "video not paused within 20 s of a 100 kbit/s cap; stderr:\n\(viewer.stderrTail)")
                // What was queued before the pause drains; then, over 3 s, the audio alone (a
                // receiver-report budget is tried again 6 s after its last cut, cap or not).
                _ = try await Self.drive(publisher, relay: relay, room: "wa", seconds: 2) { _ in false }
                let before = impairment.statistics().downlink
                let audioBefore = publisher.audioPackets
                _ = try await Self.drive(publisher, relay: relay, room: "wa", seconds: 3) { _ in false }
                let after = impairment.statistics().downlink
                let arrived = after.packetsIn - before.packetsIn
                let dropped = after.droppedQueueFull + after.lostAtRandom - before.droppedQueueFull - before.lostAtRandom
                let sent = publisher.audioPackets - audioBefore
                // Every audio packet, and nothing else but the odd sender report.
                #expect(
                    arrived >= sent * 9 / 10 && arrived <= sent + 10, "the relay sent \(arrived) datagrams to the paused viewer for \(sent) audio packets")
                #expect(Double(dropped) < 0.02 * Double(max(arrived, 1)), "\(dropped) of \(arrived) lost while video was paused")

                impairment.set(.none, for: .downlink)
                let resumed = try await Self.drive(publisher, relay: relay, room: "wa", seconds: 30) { $0?.videoEnabled == true }
                #expect(resumed != nil, "video did not resume within 30 s of the lift")
                print(
                    "aiortc viewer, audio only allowed: paused \(paused.map { String(format: "%.1f", $0) } ?? "-") s after the cap, "
                        + "\(arrived) datagrams for \(sent) audio packets while paused, \(dropped) lost, "
                        + "resumed \(resumed.map { String(format: "%.1f", $0) } ?? "-") s after the lift")
            }
        }
    }
}
