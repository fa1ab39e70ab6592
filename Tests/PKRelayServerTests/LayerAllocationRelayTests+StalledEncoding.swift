import PKRelayClient
import Protocol
import RTPWire
import Testing

/// A publisher whose big encoding stops while its small one flows (a browser drops its top
/// encoding when its uplink weakens): the big layer's viewers are moved to small instead of
/// freezing, and back when big flows again, each time told why.
extension LayerAllocationRelayTests {
    @Test("viewers of a big encoding its publisher stopped move to the small one, and back when it flows again")
    func stoppedTopEncodingMovesItsViewers() async throws {
        try await TestRelay.with { relay in
            let publisher = try await DualStreamRelayTests.DualPublisher(relay, room: "pk", user: "anchor")
            try await publisher.send(1, bigKeyframes: [0], smallKeyframes: [0])
            let (viewer, endpoint, track) = try await DualStreamRelayTests.subscriber(relay, room: "pk", user: "viewer", to: "anchor", nil)
            #expect(track.videoStreamType == .big)
            try endpoint.proveAddress()
            // Both layers flow for a while: nothing moves.
            _ = try await Self.drive(publisher, big: true, seconds: 1.5) { false }
            #expect(await Self.fallbacks(viewer).isEmpty)

            // The big encoding stops; the small one goes on.
            let stoppedAt = ContinuousClock.now
            let moved = try await Self.drive(publisher, big: false, seconds: 10) { await !Self.fallbacks(viewer).isEmpty }
            #expect(moved, "the viewer was not moved within 10 s of the big encoding stopping")
            let movedAfter = ContinuousClock.now - stoppedAt
            let down = try #require(await Self.fallbacks(viewer).first)
            #expect(down.reason == .publisherChange && down.beforeVideoStreamType == .big && down.afterVideoStreamType == .small)
            #expect(down.afterVideoEnabled)
            let smallBefore = publisher.sentSmall.count
            let gotSmall = try await Self.drive(publisher, big: false, seconds: 5) {
                let small = Set(publisher.sentSmall[smallBefore...].map(\.payload))
                return endpoint.receivedRTP(ssrc: track.ssrc).contains { small.contains($0.payload) }
            }
            #expect(gotSmall, "the moved viewer received no small packet")
            // The publisher hears that both encodings are wanted: the small one is received, and
            // the big one would be again (a publisher that stopped it for want of viewers must
            // start it, or the viewer never gets it back).
            func layerEvents() async -> [SubscribedLayersChangedEvent] {
                await publisher.client.events().compactMap { if case .subscribedLayersChanged(let e) = $0.event { e } else { nil } }
            }
            let bothWanted = try await Self.drive(publisher, big: false, seconds: 3) {
                await layerEvents().last.map { $0.bigSubscribed && $0.smallSubscribed } == true
            }
            let heard = await layerEvents()
            #expect(bothWanted, "\(heard)")

            // Big flows again: the viewer is moved back, with no bandwidth hold to wait out.
            let resumedAt = ContinuousClock.now
            let back = try await Self.drive(publisher, big: true, seconds: 5) { await Self.fallbacks(viewer).count >= 2 }
            #expect(back, "the viewer was not moved back within 5 s of the big encoding flowing again")
            print("stopped big encoding: viewer moved \(movedAfter) after the stop, back \(ContinuousClock.now - resumedAt) after big resumed")
            let up = try #require(await Self.fallbacks(viewer).dropFirst().first)
            #expect(up.reason == .publisherChange && up.afterVideoStreamType == .big)
            let bigBefore = publisher.sentBig.count
            let gotBig = try await Self.drive(publisher, big: true, seconds: 5) {
                let big = Set(publisher.sentBig[bigBefore...].map(\.payload))
                return endpoint.receivedRTP(ssrc: track.ssrc).contains { big.contains($0.payload) }
            }
            #expect(gotBig, "the viewer received no big packet after moving back")
            #expect(MediaHelpers.isContinuous(endpoint.receivedRTP(ssrc: track.ssrc).map(\.sequenceNumber)), "one stream across both moves")

            let counts = try await relay.metrics(["pkrelay_video_layer_changes_total{reason=\"publisher\"}"])
            #expect(counts["pkrelay_video_layer_changes_total{reason=\"publisher\"}"] == 2)
        }
    }
}
