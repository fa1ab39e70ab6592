import PKRelayClient
import Protocol
import RTPWire
import Testing

/// `setRemoteVideoConfig`: a viewer that shows a publisher small gets the layer that fills it,
/// matched against the sizes the publisher's VP8 keyframes state, and the top layer back when
/// it shows it large again.
extension LayerAllocationRelayTests {
    @Test("a viewer's rendered size caps its layer at the smallest that fills it, and lifting it brings the top layer back")
    func renderedSizeCapsTheLayer() async throws {
        try await TestRelay.with { relay in
            let publisher = try await DualStreamRelayTests.DualPublisher(relay, room: "pk", user: "anchor")
            publisher.big.width = 1280
            publisher.big.height = 720
            publisher.small.width = 320
            publisher.small.height = 180
            try await publisher.send(1, bigKeyframes: [0], smallKeyframes: [0])
            let (viewer, endpoint, track) = try await DualStreamRelayTests.subscriber(relay, room: "pk", user: "viewer", to: "anchor", nil)
            try endpoint.proveAddress()
            // A report after the keyframes: the relay knows both layers' sizes.
            _ = try await Self.drive(publisher, big: true, seconds: 1.5) { false }

            // Shown in a 300x300 box: the 320x180 small layer is wide enough.
            try await viewer.call("setRemoteVideoConfig", SetRemoteVideoConfigParams(roomId: "pk", userId: "anchor", width: 300, height: 300))
            let capped = try await Self.drive(publisher, big: true, seconds: 5) { await !Self.fallbacks(viewer).isEmpty }
            #expect(capped, "no onSimulcastSubscribeFallback after setRemoteVideoConfig")
            let down = try #require(await Self.fallbacks(viewer).first)
            #expect(down.reason == .subscriberRequest && down.beforeVideoStreamType == .big && down.afterVideoStreamType == .small)
            let smallBefore = publisher.sentSmall.count
            let gotSmall = try await Self.drive(publisher, big: true, seconds: 5) {
                let small = Set(publisher.sentSmall[smallBefore...].map(\.payload))
                return endpoint.receivedRTP(ssrc: track.ssrc).contains { small.contains($0.payload) }
            }
            #expect(gotSmall, "the viewer received no small packet")

            // Shown at 1280x720: the small layer no longer fills it, so big, at once.
            try await viewer.call("setRemoteVideoConfig", SetRemoteVideoConfigParams(roomId: "pk", userId: "anchor", width: 1280, height: 720))
            let lifted = try await Self.drive(publisher, big: true, seconds: 5) { await Self.fallbacks(viewer).count >= 2 }
            #expect(lifted, "the top layer did not come back when the rendered size grew")
            let up = try #require(await Self.fallbacks(viewer).dropFirst().first)
            #expect(up.reason == .subscriberRequest && up.afterVideoStreamType == .big)
            // 0 by 0 lifts the ceiling altogether; nothing to change now.
            try await viewer.call("setRemoteVideoConfig", SetRemoteVideoConfigParams(roomId: "pk", userId: "anchor", width: 0, height: 0))
            #expect(await Self.fallbacks(viewer).count == 2)
        }
    }

    @Test("setRemoteVideoConfig validates its parameters")
    func renderedSizeIsValidated() async throws {
        try await TestRelay.with { relay in
            let viewer = try await relay.join(room: "pk", user: "viewer")
            for (id, params) in [
                (1, #"{"roomId": "pk", "userId": "a", "width": -1, "height": 90}"#),
                (2, #"{"roomId": "pk", "userId": "a", "width": 160, "height": 16385}"#),
                (3, #"{"roomId": "pk", "userId": "a", "width": 160, "height": 90, "framerate": 1000}"#),
                (4, #"{"roomId": "pk", "userId": "a", "width": "160", "height": 90}"#),
                (5, #"{"roomId": "pk", "userId": "a", "width": 160, "height": 90, "streamIndex": "side"}"#),
            ] {
                let reply = try await viewer.exchangeRaw(#"{"id": \#(id), "method": "setRemoteVideoConfig", "params": \#(params)}"#)
                #expect(reply.error?.code.rawValue == -32602, "\(params)")
                #expect(reply.error?.message.isEmpty == false)
            }
            let elsewhere = try await viewer.exchangeRaw(
                #"{"id": 9, "method": "setRemoteVideoConfig", "params": {"roomId": "other", "userId": "a", "width": 160, "height": 90}}"#)
            #expect(elsewhere.error?.code.rawValue == 4001)
            try await viewer.call("setRemoteVideoConfig", SetRemoteVideoConfigParams(roomId: "pk", userId: "a", streamIndex: .screen, width: 160, height: 90))
        }
    }
}
