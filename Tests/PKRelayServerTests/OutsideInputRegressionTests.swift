import Auth
import Foundation
import PKRelayClient
import Protocol
import Testing

@testable import PKRelayServer

/// Inputs that once stopped the relay, sent by a real client over loopback: each must get its
/// clear error while the relay goes on answering everyone.
@Suite struct OutsideInputRegressionTests {
    /// A forward target with an empty, malformed or overlong room id, with webhooks on, through
    /// startForwardStreamToRooms and through updateForwardStreamToRooms while a forward runs.
    @Test func badForwardTargetIdsWithWebhooksOn() async throws {
        let receiver = try await WebhookReceiver.start()
        do {
            try await TestRelay.with({ WebhookDeliveryTests.configure(&$0, url: receiver.url) }) { relay in
                let alice = try await relay.join(room: "r1", user: "alice")
                let bad = ["", "bad room/../x", String(repeating: "r", count: 300)]
                let started: ForwardStreamResult = try await alice.request(
                    "startForwardStreamToRooms",
                    StartForwardParams(
                        roomId: "r1", targets: bad.map { ForwardTargetParams(roomId: $0, token: "x") }))
                #expect(started.infos.map(\.error) == [1201, 1201, 1201])
                #expect(started.infos.allSatisfy { $0.state == ForwardState.failure.rawValue })

                let good = ForwardTargetParams(roomId: "r2", token: TestRelay.token(room: "r2", user: "alice"))
                let running: ForwardStreamResult = try await alice.request("startForwardStreamToRooms", StartForwardParams(roomId: "r1", targets: [good]))
                #expect(running.infos.map(\.state) == [ForwardState.success.rawValue])
                let updated: ForwardStreamResult = try await alice.request(
                    "updateForwardStreamToRooms",
                    StartForwardParams(
                        roomId: "r1", targets: [good] + bad.map { ForwardTargetParams(roomId: $0, token: "x") }))
                #expect(updated.infos.map(\.error) == [1201, 1201, 1201])

                // The relay still answers, and only real rooms exist.
                let bob = try await relay.join(room: "r1", user: "bob")
                let rooms = try await AdminHTTPClient.text(port: relay.ports.admin, path: "/metrics")
                #expect(rooms.contains("pkrelay_rooms 2"), "\(rooms.prefix(400))")
                let hooks = try await receiver.waitUntil("the failed targets") { hooks in
                    WebhookReceiver.delivered(hooks).filter { $0.type == "forward.state_changed" && $0.data["state"] as? String == "failure" }.count >= 6
                }
                let failures = WebhookReceiver.delivered(hooks).filter { $0.type == "forward.state_changed" && $0.data["state"] as? String == "failure" }
                #expect(Set(failures.compactMap { $0.data["targetRoomId"] as? String }) == Set(bad))
                #expect(failures.allSatisfy { $0.data["error"] as? Int == 1201 })
                await alice.close()
                await bob.close()
            }
        } catch {
            await receiver.stop()
            throw error
        }
        await receiver.stop()
    }

    /// Validly signed tokens whose times no clock reaches (2^63-1, negative, past the year 9999).
    @Test func tokenTimesOutsideTheAcceptedRangeAreInvalidTokens() async throws {
        try await TestRelay.with { relay in
            let minter = TokenMinter(key: .development)
            let now = Int64(Date().timeIntervalSince1970)
            let claims: [TokenClaims] = [
                TokenClaims(sub: "mallory", room: "r1", exp: .max),
                TokenClaims(sub: "mallory", room: "r1", exp: now + 3600, nbf: .max),
                TokenClaims(sub: "mallory", room: "r1", exp: now + 3600, nbf: .min),
                TokenClaims(sub: "mallory", room: "r1", exp: 253_402_300_800),
                TokenClaims(sub: "mallory", room: "r1", exp: now + 3600, iat: .min),
                TokenClaims(sub: "mallory", room: "r1", exp: now + 3600, grants: TokenGrantSet(publishExpiresAt: .max)),
            ]
            let client = try await relay.connect()
            for claim in claims {
                let answer = try await client.exchangeRaw(Self.joinText(token: minter.mint(claim)))
                #expect(answer.error?.code == .invalidToken, "\(answer.text)")
            }
            // The furthest accepted expiry joins, and the relay goes on.
            let far = try await client.exchangeRaw(Self.joinText(token: minter.mint(TokenClaims(sub: "mallory", room: "r1", exp: 253_402_300_799))))
            #expect(far.error == nil, "\(far.text)")
            let huge = try await client.exchangeRaw(
                #"{"id": 9, "method": "updateToken", "params": {"roomId": "r1", "token": "#
                    + #""\#(minter.mint(TokenClaims(sub: "mallory", room: "r1", exp: .max)))"}}"#
            )
            #expect(huge.error?.code == .invalidToken, "\(huge.text)")
            let target = try await client.exchangeRaw(
                #"{"id": 10, "method": "startForwardStreamToRooms", "params": {"roomId": "r1", "targets": [{"roomId": "r2", "token": "#
                    + #""\#(minter.mint(TokenClaims(sub: "mallory", room: "r2", exp: .max)))"}]}}"#
            )
            #expect(target.text.contains("\"error\":1202"), "\(target.text)")
            let other = try await relay.join(room: "r1", user: "other")
            await other.close()
            await client.close()
        }
    }

    static func joinText(token: String) -> String {
        #"{"id": 1, "method": "joinRoom", "params": {"roomId": "r1", "userId": "mallory", "token": "\#(token)"}}"#
    }
}
