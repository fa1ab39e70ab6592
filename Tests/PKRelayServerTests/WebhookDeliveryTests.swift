import Foundation
import PKRelayClient
import PKRelayServer
import Protocol
import Testing

/// Webhooks to a real receiver on loopback: signed bodies, per-room order, retries with backoff
/// through failures and a stalled endpoint, overflow counted, and control never slowed.
@Suite(.timeLimit(.minutes(2)))
struct WebhookDeliveryTests {
    static let secret = "webhook-test-secret-0123456789"

    static func configure(_ configuration: inout RelayConfiguration, url: String) {
        configuration.webhooks.urls = [url]
        configuration.webhooks.secret = secret
        configuration.webhooks.initialBackoffMs = 20
        configuration.webhooks.maxBackoffMs = 100
        configuration.webhooks.requestTimeoutMs = 1000
        configuration.webhooks.retryForSeconds = 10
    }

    static func expectSigned(_ hook: WebhookReceiver.Hook) {
        let timestamp = hook.headers["x-pkrelay-timestamp"] ?? ""
        let signature = hook.headers["x-pkrelay-signature"] ?? ""
        #expect(Int64(timestamp) != nil)
        #expect(WebhookSignature.isValid(signature, secret: secret, timestamp: timestamp, body: hook.body), "bad signature on \(hook.type)")
        #expect(!WebhookSignature.isValid(signature, secret: secret + "x", timestamp: timestamp, body: hook.body))
        #expect(hook.headers["x-pkrelay-event"] == hook.type)
        #expect(hook.headers["x-pkrelay-delivery"] == hook.id)
        #expect(hook.json["timestamp"] as? Int != nil)
    }

    /// The types of the events delivered for a room, each event once (delivery is at least once:
    /// an answer slower than the relay's timeout is retried, so receivers deduplicate on the id).
    static func types(_ hooks: [WebhookReceiver.Hook], room: String) -> [String] {
        var seen = Set<String>()
        return WebhookReceiver.delivered(hooks).filter { $0.roomId == room && seen.insert($0.id).inserted }.map(\.type)
    }

    @Test func roomLifecycleIsSignedAndOrdered() async throws {
        let receiver = try await WebhookReceiver.start()
        do {
            try await TestRelay.with({ Self.configure(&$0, url: receiver.url) }) { relay in
                let alice = try await relay.join(room: "wh-1", user: "alice")
                let bob = try await relay.join(room: "wh-1", user: "bob")
                try await bob.call("switchRole", SwitchRoleParams(roomId: "wh-1", role: .audience))
                try await bob.call("leaveRoom", RoomParams(roomId: "wh-1"))
                await alice.close()
                let hooks = try await receiver.waitUntil("room.ended") { Self.types($0, room: "wh-1").contains("room.ended") }
                #expect(
                    Self.types(hooks, room: "wh-1") == [
                        "room.created", "user.joined", "user.joined", "user.role_changed", "user.left", "user.left", "room.ended",
                    ])
                var seen = Set<String>()
                let delivered = WebhookReceiver.delivered(hooks).filter { seen.insert($0.id).inserted }
                for hook in delivered { Self.expectSigned(hook) }
                #expect(delivered.map(\.sequence) == delivered.map(\.sequence).sorted())
                #expect(Set(delivered.map(\.id)).count == 7)
                let left = delivered.filter { $0.type == "user.left" }
                #expect(left.map { $0.data["userId"] as? String } == ["bob", "alice"])
                #expect(left.map { $0.data["reason"] as? String } == ["left", "disconnected"])
                #expect(delivered.first { $0.type == "user.role_changed" }?.data["role"] as? String == "audience")
                await bob.close()
            }
        } catch {
            await receiver.stop()
            throw error
        }
        await receiver.stop()
    }

    @Test func failingThenStalledEndpointRecoversInOrder() async throws {
        // Attempts 0-2 fail with 500, attempt 3 stalls past the relay's request timeout (1 s), then all succeed.
        let receiver = try await WebhookReceiver.start { index in
            if index < 3 { return 500 }
            if index == 3 {
                try? await Task.sleep(for: .milliseconds(2500))
                return 503
            }
            return 200
        }
        do {
            try await TestRelay.with({ Self.configure(&$0, url: receiver.url) }) { relay in
                let alice = try await relay.join(room: "wh-2", user: "alice")
                let bob = try await relay.join(room: "wh-2", user: "bob")
                let carol = try await relay.join(room: "wh-3", user: "carol")
                let hooks: [WebhookReceiver.Hook]
                do {
                    hooks = try await receiver.waitUntil("the events after retries") { hooks in
                        Self.types(hooks, room: "wh-2") == ["room.created", "user.joined", "user.joined"] && Self.types(hooks, room: "wh-3").count == 2
                            && hooks.contains { $0.answered == 503 }
                    }
                } catch {
                    let seen = await receiver.log.hooks.map { "\($0.roomId) \($0.type) #\($0.attempt) -> \($0.answered)" }
                    Issue.record("received: \(seen)")
                    throw error
                }
                // Every event's attempts are numbered 1, 2, ... under one id; some needed retries.
                // An attempt whose request timed out before the receiver read it (the suite loads
                // both cores) leaves a gap, so the numbers are checked distinct and from 1 up.
                let attempts = Dictionary(grouping: hooks, by: \.id).mapValues { $0.map(\.attempt) }
                for (id, numbers) in attempts {
                    #expect(Set(numbers).count == numbers.count && numbers.allSatisfy { $0 >= 1 }, "attempts of \(id): \(numbers)")
                }
                #expect(attempts.values.contains { $0.count >= 2 })
                #expect(attempts.values.allSatisfy { $0.count <= 5 })
                for hook in hooks { Self.expectSigned(hook) }
                let roomTwo = WebhookReceiver.delivered(hooks).filter { $0.roomId == "wh-2" }
                #expect(roomTwo.map(\.sequence) == roomTwo.map(\.sequence).sorted())
                let failures = try await AdminHTTPClient.metric(port: relay.ports.admin, "pkrelay_webhook_failures_total")
                #expect(failures >= 4)
                try await AdminHTTPClient.waitForMetric(port: relay.ports.admin, "pkrelay_webhook_deliveries_total") { $0 >= 5 }
                await alice.close()
                await bob.close()
                await carol.close()
            }
        } catch {
            await receiver.stop()
            throw error
        }
        await receiver.stop()
    }

    @Test func deadEndpointOverflowsAndGivesUpWithoutSlowingControl() async throws {
        // A port nothing listens on: every attempt is refused.
        let receiver = try await WebhookReceiver.start()
        let deadURL = receiver.url
        await receiver.stop()
        try await TestRelay.with({
            Self.configure(&$0, url: deadURL)
            $0.webhooks.queueSize = 3
            $0.webhooks.retryForSeconds = 1
        }) { relay in
            var clients: [ControlClient] = []
            for index in 0..<6 { clients.append(try await relay.join(room: "wh-dead-\(index)", user: "u\(index)")) }
            // Control never waits on delivery: events arrive faster than a dead endpoint is given
            // up on, so the bounded queue overflows (a relay waiting on webhooks could not fill it).
            let port = relay.ports.admin
            #expect(try await AdminHTTPClient.metric(port: port, #"pkrelay_webhook_dropped_total{reason="queue_full"}"#) > 0)
            try await AdminHTTPClient.waitForMetric(port: port, "pkrelay_webhook_queue_depth") { $0 == 0 }
            #expect(try await AdminHTTPClient.metric(port: port, #"pkrelay_webhook_dropped_total{reason="gave_up"}"#) >= 3)
            for client in clients { await client.close() }
        }
    }
}
