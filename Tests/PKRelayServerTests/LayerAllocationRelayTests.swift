import AdminAPI
import Foundation
import PKRelayClient
import PKRelayServer
import Protocol
import RTPWire
import SecureTransport
import Testing

/// Automatic fallback end to end, for a subscriber the relay estimates from receiver reports
/// alone (an SRTP client such as ffmpeg): heavy reported loss moves it to the small layer at a
/// keyframe, with an event naming the reason, and a quiet link brings the big layer back.
@Suite("Layer allocation end to end", .timeLimit(.minutes(1)))
struct LayerAllocationRelayTests {
    /// Sends frame pairs (small frames alone while `big` is false: the big encoding stopped) and,
    /// with a `viewer`, its receiver reports, until `done` says so, or `seconds` pass.
    static func drive(
        _ publisher: DualStreamRelayTests.DualPublisher, viewer: MediaEndpoint? = nil, videoSSRC: UInt32 = 0, fractionLost: UInt8 = 0, big: Bool = true,
        seconds: Double, until done: () async -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var round = 0
        while ContinuousClock.now < deadline {
            // A keyframe of each layer every 10 rounds, so a switch never waits long.
            try await publisher.send(1, bigKeyframes: round % 10 == 0 ? [0] : [], smallKeyframes: round % 10 == 5 ? [0] : [], big: big)
            if let viewer, round % 25 == 0 {
                let block = RTCPReportBlock(
                    ssrc: videoSSRC, fractionLost: fractionLost, cumulativeLost: 0, extendedHighestSequence: 0, jitter: 0, lastSenderReport: 0,
                    delaySinceLastSenderReport: 0)
                try viewer.sendReceiverReport(ssrc: 0x7E57_0001, block: block)
            }
            if await done() { return true }
            round += 1
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    static func fallbacks(_ client: ControlClient) async -> [SimulcastSubscribeFallbackEvent] {
        await client.events().compactMap { if case .simulcastSubscribeFallback(let event) = $0.event { event } else { nil } }
    }

    @Test("an SRTP viewer reporting heavy loss falls back to small at a keyframe, and recovers on a quiet link")
    func receiverReportFallbackAndRecovery() async throws {
        try await TestRelay.with { relay in
            let publisher = try await DualStreamRelayTests.DualPublisher(relay, room: "pk", user: "anchor")
            try await publisher.send(1, bigKeyframes: [0], smallKeyframes: [0])
            let (viewer, endpoint, track) = try await DualStreamRelayTests.subscriber(relay, room: "pk", user: "viewer", to: "anchor", nil)
            #expect(track.videoStreamType == .big)
            try endpoint.proveAddress()
            // A second viewer of the same publisher on a clean link: its own budget, untouched.
            let (clean, cleanEndpoint, cleanTrack) = try await DualStreamRelayTests.subscriber(relay, room: "pk", user: "clean", to: "anchor", nil)
            try cleanEndpoint.proveAddress()

            // Half of everything lost, by the viewer's reports.
            let fellBack = try await Self.drive(publisher, viewer: endpoint, videoSSRC: track.ssrc, fractionLost: 128, seconds: 15) {
                await !Self.fallbacks(viewer).isEmpty
            }
            #expect(fellBack, "no onSimulcastSubscribeFallback within 15 s of heavy reported loss")
            let fallback = try #require(await Self.fallbacks(viewer).first)
            #expect(fallback.userId == "anchor" && fallback.reason == .subscribeFallbackByBandwidth)
            #expect(fallback.beforeVideoStreamType == .big && fallback.afterVideoStreamType == .small)
            #expect(fallback.beforeVideoEnabled && fallback.afterVideoEnabled)
            #expect((fallback.estimateBps ?? 0) > 0)
            // The admin API shows what each subscription now delivers.
            let reply = try await AdminHTTPClient.send(
                port: relay.ports.admin, method: "GET", path: "/admin/v1/rooms/pk", token: AdminAPITests.adminToken(), headers: [:], body: nil)
            let room = try JSONDecoder().decode(AdminRoomDetail.self, from: Data(reply.body.utf8))
            let delivered = Dictionary(uniqueKeysWithValues: room.users.compactMap { user in user.subscriptions.first.map { (user.userId, $0) } })
            #expect(delivered["viewer"]?.videoStreamType == .small && delivered["viewer"]?.videoEnabled == true)
            #expect(delivered["clean"]?.videoStreamType == .big)
            // And so does the viewer's own getStats.
            let stats: GetStatsResult = try await viewer.request("getStats", GetStatsParams(roomId: "pk"))
            let video = stats.subscribed.first { $0.kind == .video }
            #expect(video?.videoStreamType == .small && video?.videoEnabled == true)

            // The small layer arrives under the viewer's SSRC, from a keyframe on.
            let smallBefore = publisher.sentSmall.count
            _ = try await Self.drive(publisher, viewer: endpoint, videoSSRC: track.ssrc, fractionLost: 128, seconds: 5) {
                let small = Set(publisher.sentSmall[smallBefore...].map(\.payload))
                return endpoint.receivedRTP(ssrc: track.ssrc).contains { small.contains($0.payload) }
            }
            let smallPayloads = Set(publisher.sentSmall.map(\.payload))
            let received = endpoint.receivedRTP(ssrc: track.ssrc)
            let firstSmall = try #require(received.firstIndex { smallPayloads.contains($0.payload) }, "the viewer got no small packet")
            #expect(VP8Packetizer.isKeyframe(payload: received[firstSmall].payload), "the first small packet is a keyframe")
            #expect(MediaHelpers.isContinuous(received.map(\.sequenceNumber)), "one stream across the fallback")

            // A quiet link: after the quiet spell the budget is lifted and big comes back.
            let recovered = try await Self.drive(publisher, viewer: endpoint, videoSSRC: track.ssrc, fractionLost: 0, seconds: 20) {
                await Self.fallbacks(viewer).count >= 2
            }
            #expect(recovered, "no recovery within 20 s of a quiet link")
            let recovery = try #require(await Self.fallbacks(viewer).dropFirst().first)
            #expect(recovery.reason == .subscribeRecoverByBandwidth && recovery.afterVideoStreamType == .big)
            // The clean viewer kept the big layer throughout.
            #expect(await Self.fallbacks(clean).isEmpty)
            let bigPayloads = Set(publisher.sentBig.map(\.payload))
            #expect(cleanEndpoint.receivedRTP(ssrc: cleanTrack.ssrc).allSatisfy { bigPayloads.contains($0.payload) }, "the clean viewer got only big packets")

            let counts = try await relay.metrics([
                "pkrelay_video_layer_changes_total{reason=\"fallback\"}", "pkrelay_video_layer_changes_total{reason=\"recovery\"}",
            ])
            #expect(counts["pkrelay_video_layer_changes_total{reason=\"fallback\"}"] == 1)
            #expect(counts["pkrelay_video_layer_changes_total{reason=\"recovery\"}"] == 1)
        }
    }

    @Test("setSubscribeFallbackOption and setRemoteUserPriority validate their parameters")
    func settingsAreValidated() async throws {
        try await TestRelay.with { relay in
            let viewer = try await relay.join(room: "pk", user: "viewer")
            try await viewer.call("setSubscribeFallbackOption", SetSubscribeFallbackOptionParams(option: .audioOnly))
            let bad = try await viewer.exchangeRaw(#"{"id": 7, "method": "setSubscribeFallbackOption", "params": {"option": 3}}"#)
            #expect(bad.error?.code.rawValue == -32602)
            try await viewer.call("setRemoteUserPriority", SetRemoteUserPriorityParams(roomId: "pk", userId: "anchor", priority: .high))
            let badPriority = try await viewer.exchangeRaw(
                #"{"id": 8, "method": "setRemoteUserPriority", "params": {"roomId": "pk", "userId": "a", "priority": 50}}"#)
            #expect(badPriority.error?.code.rawValue == -32602)
            let elsewhere = try await viewer.exchangeRaw(
                #"{"id": 9, "method": "setRemoteUserPriority", "params": {"roomId": "other", "userId": "a", "priority": 100}}"#)
            #expect(elsewhere.error?.code.rawValue == 4001)
        }
    }
}
