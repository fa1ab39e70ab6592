import Auth
import Foundation
import PKRelayClient
import Protocol
import Testing

/// The control channel answers every kind of bad input with the documented error, keeps the
/// connection usable, and leaks nothing to other users in the room.
@Suite("Control channel bad input", .timeLimit(.minutes(1)))
struct ControlChannelBadInputTests {
    /// A request that must succeed: proves the connection still works.
    static func assertStillWorks(_ client: ControlClient, _ context: String) async throws {
        let stats: GetStatsResult = try await client.request("getStats", GetStatsParams())
        #expect(stats.generatedAt >= 0, "getStats after \(context)")
        #expect(await client.isClosed == false, "connection closed after \(context)")
    }

    /// Events `watcher` received after `baseline`, once a round trip on its own connection
    /// guarantees anything the relay queued for it earlier has arrived.
    static func eventsSince(_ baseline: Int, _ watcher: ControlClient) async throws -> [ReceivedEvent] {
        let _: GetStatsResult = try await watcher.request("getStats", GetStatsParams())
        return Array(await watcher.events().dropFirst(baseline))
    }

    @Test("malformed, non-request, unknown-method, bad-params, oversized and binary messages")
    func framingErrors() async throws {
        try await TestRelay.with { relay in
            let watcher = try await relay.join(room: "r1", user: "watcher")
            let client = try await relay.join(room: "r1", user: "mallory")
            _ = try await watcher.nextEvent(named: "onUserJoined")
            let baseline = await watcher.eventCount

            let cases: [(text: String, code: ErrorCode, id: RequestID?, mentions: String?)] = [
                (#"{"id": 1, "method": "getStats", "params": {"#, .parseError, nil, nil),
                ("not json at all", .parseError, nil, nil),
                ("[1, 2, 3]", .invalidRequest, nil, nil),
                (#""just a string""#, .invalidRequest, nil, nil),
                ("42", .invalidRequest, nil, nil),
                ("null", .invalidRequest, nil, nil),
                ("true", .invalidRequest, nil, nil),
                (#"{"id": "m1", "params": {}}"#, .invalidRequest, .string("m1"), "method"),
                (#"{"id": "m2", "method": 17}"#, .invalidRequest, .string("m2"), "method"),
                (#"{"id": {"nested": true}, "method": "getStats"}"#, .invalidRequest, nil, "id"),
                (#"{"id": "u1", "method": "launchRocket", "params": {}}"#, .methodNotFound, .string("u1"), "launchRocket"),
                (#"{"id": "p1", "method": "createTransport", "params": {"srtpProfile": 7}}"#, .invalidParams, .string("p1"), "srtpProfile"),
                (#"{"id": "p2", "method": "connectTransport", "params": {"transportId": "seven"}}"#, .invalidParams, .string("p2"), "transportId"),
                (#"{"id": "p3", "method": "connectTransport", "params": {}}"#, .invalidParams, .string("p3"), "transportId"),
                (#"{"id": "p4", "method": "leaveRoom", "params": {"roomId": ["r1"]}}"#, .invalidParams, .string("p4"), "roomId"),
                (
                    #"{"id": "p5", "method": "publishStream", "params": {"roomId": "r1", "transportId": 1, "tracks": [{"kind": "video", "#
                        + #""ssrc": "five", "payloadType": 96, "codec": "VP8", "clockRate": 90000}]}}"#,
                    .invalidParams, .string("p5"), "ssrc"
                ),
                (#"{"id": "p6", "method": "getStats", "params": [1, 2]}"#, .invalidParams, .string("p6"), "params"),
            ]
            for (text, code, id, mentions) in cases {
                let reply = try await client.exchangeRaw(text)
                #expect(reply.error?.code == code, "\(text) -> \(reply.text)")
                #expect(reply.id == id, "\(text) -> \(reply.text)")
                if let mentions {
                    #expect(reply.error?.message.contains(mentions) == true, "\(text) -> \(reply.text)")
                }
                try await Self.assertStillWorks(client, text)
            }

            // Over 64 KiB: refused with -32001 before parsing, the connection stays open.
            let padding = String(repeating: "x", count: 70 * 1024)
            let oversized = try await client.exchangeRaw(#"{"id": "big", "method": "getStats", "params": {"pad": "\#(padding)"}}"#)
            #expect(oversized.error?.code == .messageTooLarge, "\(oversized.text)")
            try await Self.assertStillWorks(client, "an oversized message")

            // Just under the limit is fine (unknown params are ignored).
            let nearLimit = String(repeating: "y", count: 60 * 1024)
            let accepted = try await client.exchangeRaw(#"{"id": "near", "method": "getStats", "params": {"pad": "\#(nearLimit)"}}"#)
            #expect(accepted.error == nil && accepted.hasResult, "\(accepted.text.prefix(200))")

            try await client.sendBinary([0x7B, 0x7D, 0x00, 0xFF])
            let binary = try await client.nextUnmatchedResponse()
            #expect(binary.error?.code == .invalidRequest, "\(binary.text)")
            try await Self.assertStillWorks(client, "a binary frame")

            let stray = try await Self.eventsSince(baseline, watcher)
            #expect(stray.isEmpty, "the other user saw \(stray.map(\.text))")
            await client.close()
            await watcher.close()
        }
    }

    @Test("the nesting limit is 512 levels with the message object, and params errors name their full path")
    func nestingAndPaths() async throws {
        try await TestRelay.with { relay in
            let client = try await relay.join(room: "r1", user: "nester")
            func nested(_ levels: Int) -> String {
                String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
            }
            // The message object is level 1 and params level 2: 510 arrays inside params is the deepest accepted.
            let deepest = try await client.exchangeRaw(#"{"id": "d510", "method": "getStats", "params": {"pad": \#(nested(510))}}"#)
            #expect(deepest.error == nil && deepest.hasResult, "\(deepest.text.prefix(200))")
            let tooDeep = try await client.exchangeRaw(#"{"id": "d511", "method": "getStats", "params": {"pad": \#(nested(511))}}"#)
            #expect(tooDeep.error?.code == .parseError && tooDeep.id == nil, "\(tooDeep.text.prefix(200))")
            #expect(tooDeep.error?.message == "message is not valid JSON")
            try await Self.assertStillWorks(client, "JSON nested too deep")

            let cases: [(text: String, message: String)] = [
                (
                    #"{"id": 1, "method": "publishStream", "params": {"roomId": "r1", "transportId": 1, "tracks": [{"kind": "video", "ssrc": "#
                        + #""five", "payloadType": 96, "codec": "VP8", "clockRate": 90000}]}}"#,
                    "params.tracks[0].ssrc must be a whole number in range"
                ),
                (#"{"id": 2, "method": "connectTransport"}"#, "params.transportId is required"),
                (#"{"id": 3, "method": "connectTransport", "params": null}"#, "params.transportId is required"),
                (#"{"id": 4, "method": "connectTransport", "params": {"transportId": null}}"#, "params.transportId must be a whole number in range, not null"),
            ]
            for (text, message) in cases {
                let reply = try await client.exchangeRaw(text)
                #expect(reply.error?.code == .invalidParams, "\(text) -> \(reply.text)")
                #expect(reply.error?.message == message, "\(text) -> \(reply.text)")
            }
            await client.close()
        }
    }

    @Test("calls in the wrong state: not joined, connected twice, another connection's transport")
    func wrongState() async throws {
        try await TestRelay.with { relay in
            let watcher = try await relay.join(room: "r1", user: "watcher")
            let other = try await relay.join(room: "r1", user: "bob")
            _ = try await watcher.nextEvent(named: "onUserJoined")
            let client = try await relay.connect()

            // Publishing before joining.
            let track = TrackDescription(kind: .audio, ssrc: 1234, payloadType: 111, codec: "opus", clockRate: 48000)
            let early = await #expect(throws: ControlClientError.self) {
                let _: PublishStreamResult = try await client.request("publishStream", PublishStreamParams(roomId: "r1", transportId: 1, tracks: [track]))
            }
            #expect(early?.relayError?.code == .notInRoom, "\(String(describing: early))")
            try await Self.assertStillWorks(client, "publish before join")

            // Join (after the watcher has a baseline), then connect a transport twice.
            let baseline = await watcher.eventCount
            let _: JoinRoomResult = try await client.request(
                "joinRoom", JoinRoomParams(token: TestRelay.token(room: "r1", user: "alice"), roomId: "r1", userId: "alice"))
            let transport: CreateTransportResult = try await client.request("createTransport", CreateTransportParams())
            let key = SDESKeyingHelper.randomKey(for: transport)
            try await client.call("connectTransport", ConnectTransportParams(transportId: transport.transportId, ip: "127.0.0.1", port: 9, srtpKey: key))
            let twice = await #expect(throws: ControlClientError.self) {
                try await client.call("connectTransport", ConnectTransportParams(transportId: transport.transportId, srtpKey: key))
            }
            #expect(twice?.relayError?.code == .transportState, "\(String(describing: twice))")
            try await Self.assertStillWorks(client, "connectTransport twice")

            // Another connection's transport: connect, close, publish on it.
            let foreign: CreateTransportResult = try await other.request("createTransport", CreateTransportParams())
            let connectForeign = await #expect(throws: ControlClientError.self) {
                try await client.call(
                    "connectTransport", ConnectTransportParams(transportId: foreign.transportId, srtpKey: SDESKeyingHelper.randomKey(for: foreign)))
            }
            #expect(connectForeign?.relayError?.code == .transportNotFound, "\(String(describing: connectForeign))")
            let closeForeign = await #expect(throws: ControlClientError.self) {
                try await client.call("closeTransport", TransportParams(transportId: foreign.transportId))
            }
            #expect(closeForeign?.relayError?.code == .transportNotFound, "\(String(describing: closeForeign))")
            let publishForeign = await #expect(throws: ControlClientError.self) {
                let _: PublishStreamResult = try await client.request(
                    "publishStream", PublishStreamParams(roomId: "r1", transportId: foreign.transportId, tracks: [track]))
            }
            #expect(publishForeign?.relayError?.code == .transportNotFound, "\(String(describing: publishForeign))")
            try await Self.assertStillWorks(client, "using another connection's transport")

            // The owner's transport is untouched: it can still connect it.
            try await other.call(
                "connectTransport",
                ConnectTransportParams(transportId: foreign.transportId, ip: "127.0.0.1", port: 9, srtpKey: SDESKeyingHelper.randomKey(for: foreign)))

            // A valid publish now works on the same connection, and the watcher sees exactly the
            // join and that publication.
            let published: PublishStreamResult = try await client.request(
                "publishStream", PublishStreamParams(roomId: "r1", transportId: transport.transportId, tracks: [track]))
            #expect(published.mediaType == MediaType.audio)
            let seen = try await Self.eventsSince(baseline, watcher)
            #expect(seen.map(\.name) == ["onUserJoined", "onUserPublishStream"], "\(seen.map(\.text))")
            await client.close()
            await other.close()
            await watcher.close()
        }
    }

    @Test("bad, expired, not-yet-valid and wrong-room tokens; no publish grant")
    func tokens() async throws {
        try await TestRelay.with { relay in
            let watcher = try await relay.join(room: "r1", user: "watcher")
            let client = try await relay.connect()
            let baseline = await watcher.eventCount
            let now = Int64(Date().timeIntervalSince1970)
            let otherKey = SigningKey(id: "dev", secret: Array("another-secret-of-at-least-32-bytes!!".utf8))
            let cases: [(token: String, code: ErrorCode, why: String)] = [
                ("not-a-token", .invalidToken, "garbage"),
                ("a.b.c", .invalidToken, "three parts of nothing"),
                (TestRelay.token(room: "r1", user: "alice", key: otherKey), .invalidToken, "wrong signature"),
                (
                    TestRelay.token(room: "r1", user: "alice", key: SigningKey(id: "nope", secret: SigningKey.development.secret)), .invalidToken,
                    "unknown key id"
                ),
                (TestRelay.token(room: "r2", user: "alice"), .invalidToken, "another room"),
                (TestRelay.token(room: "r1", user: "eve"), .invalidToken, "another user"),
                (TestRelay.token(room: "r1", user: "alice", expiresIn: -60), .tokenExpired, "expired"),
                (TestRelay.token(room: "r1", user: "alice", notBefore: now + 600), .tokenExpired, "not yet valid"),
            ]
            for (token, code, why) in cases {
                let refused = await #expect(throws: ControlClientError.self, "\(why)") {
                    let _: JoinRoomResult = try await client.request("joinRoom", JoinRoomParams(token: token, roomId: "r1", userId: "alice"))
                }
                #expect(refused?.relayError?.code == code, "\(why): \(String(describing: refused))")
                let state = try await client.nextEvent(named: "onRoomStateChanged")
                if case .roomStateChanged(let data)? = state.event {
                    #expect(data.state == code.rawValue, "\(why): \(state.text)")
                } else {
                    Issue.record("\(why): unexpected \(state.text)")
                }
                try await Self.assertStillWorks(client, "a \(why) token")
            }
            // Nothing leaked to the room.
            #expect(try await Self.eventsSince(baseline, watcher).isEmpty)

            // A token without the publish grant joins, but cannot publish.
            let _: JoinRoomResult = try await client.request(
                "joinRoom",
                JoinRoomParams(
                    token: TestRelay.token(room: "r1", user: "alice", grants: TokenGrantSet(publish: false)), roomId: "r1", userId: "alice"))
            let transport: CreateTransportResult = try await client.request("createTransport", CreateTransportParams())
            let track = TrackDescription(kind: .audio, ssrc: 4321, payloadType: 111, codec: "opus", clockRate: 48000)
            let denied = await #expect(throws: ControlClientError.self) {
                let _: PublishStreamResult = try await client.request(
                    "publishStream", PublishStreamParams(roomId: "r1", transportId: transport.transportId, tracks: [track]))
            }
            #expect(denied?.relayError?.code == .noPublishPermission, "\(String(describing: denied))")
            try await Self.assertStillWorks(client, "a publish without grant")
            let seen = try await Self.eventsSince(baseline, watcher)
            #expect(seen.map(\.name) == ["onUserJoined"], "\(seen.map(\.text))")
            await client.close()
            await watcher.close()
        }
    }
}
