import Foundation
import MediaPlane
import PKRelayClient
import PKRelayServer
import Protocol
import Testing

/// Every abuse limit, each hit by a real client on loopback: the refusal the client sees, the
/// metric the operator sees, and that what was refused leaves nothing held.
@Suite("Resource limits", .timeLimit(.minutes(1)))
struct ResourceLimitTests {
    /// A clock that never moves, so a token bucket refills only when a test says so.
    static func frozenClock() -> @Sendable () -> Int64 {
        let frozen = Int64(Date().timeIntervalSince1970 * 1000)
        return { frozen }
    }

    static func refusals(_ relay: TestRelay, _ limit: ResourceLimit) async throws -> UInt64 {
        try await relay.metric("pkrelay_limit_refusals_total{limit=\"\(limit.label)\"}")
    }

    static func getStats(id: Int) -> String { #"{"id":\#(id),"method":"getStats","params":{}}"# }

    @Test("control.maxConnections: one connection over the limit is closed with 1013; a freed slot admits again")
    func totalConnectionLimit() async throws {
        try await TestRelay.with({ $0.maxConnections = 2 }) { relay in
            let first = try await relay.connect()
            let second = try await relay.connect()
            // The refused connection is read by hand: Hummingbird's client, closed this early,
            // sometimes never reports the end of the connection.
            let third = try await SilentWebSocket.connect(port: relay.ports.control)
            defer { third.close() }
            let close = try #require(await third.closeFrame())
            #expect(close.code == 1013)
            #expect(close.reason.contains("2 connections"), "\(close.reason)")
            #expect(try await Self.refusals(relay, .connections) == 1)
            #expect(try await relay.metric("pkrelay_connections") == 2)

            await first.close()
            try await relay.waitForMetric("pkrelay_connections") { $0 == 1 }
            let fourth = try await relay.connect()
            let answer = try await fourth.exchangeRaw(Self.getStats(id: 1))
            #expect(answer.error == nil && answer.hasResult, "the freed slot admits a working connection: \(answer.text)")
            await second.close()
            await fourth.close()
        }
    }

    @Test("control.maxConnectionsPerAddress: the address's connection over the limit is closed with 1013 naming it")
    func perAddressConnectionLimit() async throws {
        try await TestRelay.with({ $0.maxConnectionsPerAddress = 2 }) { relay in
            let clients = [try await relay.connect(), try await relay.connect()]
            let over = try await SilentWebSocket.connect(port: relay.ports.control)
            defer { over.close() }
            let close = try #require(await over.closeFrame())
            #expect(close.code == 1013)
            #expect(close.reason.contains("127.0.0.1"), "\(close.reason)")
            #expect(try await Self.refusals(relay, .connectionsPerAddress) == 1)
            #expect(try await Self.refusals(relay, .connections) == 0)

            for client in clients { await client.close() }
            try await relay.waitForMetric("pkrelay_connections") { $0 == 0 }
            // Closed connections no longer count against the address.
            let again = [try await relay.connect(), try await relay.connect()]
            for client in again {
                #expect(try await client.exchangeRaw(Self.getStats(id: 7)).hasResult)
                await client.close()
            }
        }
    }

    @Test("control.requestsPerSecond counts every frame; sending on while refused closes with 1008")
    func requestRateAndFlood() async throws {
        try await TestRelay.with(nowMs: Self.frozenClock(), { $0.requestsPerSecond = 5 }) { relay in
            let client = try await relay.connect()
            // A burst of twice the rate passes, invalid frames included.
            for id in 1...8 { #expect(try await client.exchangeRaw(Self.getStats(id: id)).hasResult) }
            #expect(try await client.exchangeRaw("not json").error?.code == .parseError)
            try await client.sendBinary([1, 2, 3])
            #expect(try await client.nextUnmatchedResponse().error?.code == .invalidRequest)
            // The bucket is empty and the clock does not move: refused, not executed, id echoed.
            let refused = try await client.exchangeRaw(Self.getStats(id: 11))
            #expect(refused.error?.code == .rateLimited)
            #expect(refused.id == .number(11))
            #expect(refused.error?.message.contains("5 requests per second") == true)
            #expect(!(await client.isClosed))
            #expect(try await Self.refusals(relay, .requestRate) == 1)

            // Ten refusals in the window are answered; the eleventh closes the connection.
            for id in 12...20 { try await client.sendRaw(Self.getStats(id: id)) }
            for _ in 12...20 { #expect(try await client.nextUnmatchedResponse().error?.code == .rateLimited) }
            #expect(!(await client.isClosed))
            try await client.sendRaw(Self.getStats(id: 21))
            try await client.waitUntilClosed(timeout: .seconds(15))
            #expect(await client.closeCode == 1008)
            #expect(try await Self.refusals(relay, .requestRate) == 11)
            #expect(try await Self.refusals(relay, .requestFlood) == 1)
            try await relay.waitForMetric("pkrelay_connections") { $0 == 0 }
        }
    }

    @Test("control.joinsPerSecond: joins beyond the burst get 4029 and onRoomStateChanged 4029")
    func joinRate() async throws {
        try await TestRelay.with(nowMs: Self.frozenClock(), { $0.joinsPerSecond = 1 }) { relay in
            let client = try await relay.connect()
            for room in ["jr-a", "jr-b"] {
                let _: JoinRoomResult = try await client.request(
                    "joinRoom", JoinRoomParams(token: TestRelay.token(room: room, user: "u"), roomId: room, userId: "u"))
            }
            do {
                let _: JoinRoomResult = try await client.request(
                    "joinRoom", JoinRoomParams(token: TestRelay.token(room: "jr-c", user: "u"), roomId: "jr-c", userId: "u"))
                Issue.record("a third join within the burst of two was accepted")
            } catch ControlClientError.relay(let error) {
                #expect(error.code == .rateLimited)
                #expect(error.message.contains("1 joins per second"))
            }
            // The event follows the answer, so it may still be on its way.
            var states: [RoomStateChangedEvent] = []
            let deadline = ContinuousClock.now + .seconds(5)
            repeat {
                states = await client.events().compactMap { record -> RoomStateChangedEvent? in
                    if case .roomStateChanged(let event)? = record.event { event } else { nil }
                }
                if states.last?.roomId == "jr-c" { break }
                try await Task.sleep(for: .milliseconds(20))
            } while ContinuousClock.now < deadline
            #expect(states.last?.roomId == "jr-c" && states.last?.state == 4029, "\(states)")
            #expect(try await Self.refusals(relay, .joinRate) == 1)
            // Other requests are not held by the join limit.
            let stats: GetStatsResult = try await client.request("getStats", GetStatsParams(roomId: "jr-a"))
            #expect(stats.transports.isEmpty)
            await client.close()
        }
    }

    @Test("media ports exhausted: 4005, then freed ports serve again; open/close loops leave nothing held")
    func mediaPortExhaustion() async throws {
        let range = TestRelay.nextPortRange()
        let ports = range.lowerBound...(range.lowerBound + 2)
        try await TestRelay.with({
            $0.media.portRange = ports
            $0.requestsPerSecond = 10000
        }) { relay in
            let holder = try await relay.connect()
            var held: [Int] = []
            for _ in ports {
                let created: CreateTransportResult = try await holder.request("createTransport", CreateTransportParams())
                held.append(created.transportId)
            }
            let other = try await relay.connect()
            do {
                let _: CreateTransportResult = try await other.request("createTransport", CreateTransportParams())
                Issue.record("a fourth transport opened on three ports")
            } catch ControlClientError.relay(let error) {
                #expect(error.code == .noMediaPort)
            }
            #expect(try await Self.refusals(relay, .mediaPorts) == 1)

            // Closing one transport frees its port for anyone.
            try await holder.call("closeTransport", TransportParams(transportId: held.removeLast()))
            let reopened: CreateTransportResult = try await other.request("createTransport", CreateTransportParams())
            // A dropped connection frees every port it held.
            await holder.close()
            try await relay.waitForMetric("pkrelay_transports") { $0 == 1 }
            try await other.call("closeTransport", TransportParams(transportId: reopened.transportId))

            // Many open/close rounds: always a port, nothing left over.
            for round in 0..<60 {
                var opened: [Int] = []
                for _ in 0..<(round % 3 + 1) {
                    let created: CreateTransportResult = try await other.request("createTransport", CreateTransportParams())
                    opened.append(created.transportId)
                }
                for id in opened { try await other.call("closeTransport", TransportParams(transportId: id)) }
            }
            #expect(try await Self.refusals(relay, .mediaPorts) == 1, "no round ran out of ports")
            try await relay.waitForMetric("pkrelay_transports") { $0 == 0 }
            try await withTimeout(.seconds(5), "the media ports to be released") {
                while !ports.allSatisfy(LocalPorts.isFree) { try await Task.sleep(for: .milliseconds(20)) }
            }
            await other.close()
        }
    }

    @Test("a client that stops reading is disconnected when its queue overflows, and counted")
    func slowReaderIsDisconnected() async throws {
        try await TestRelay.with({ $0.requestsPerSecond = 10000 }) { relay in
            let watcher = try await relay.join(room: "slow", user: "watcher")
            let silent = try await SilentWebSocket.connect(port: relay.ports.control, receiveBufferBytes: 4096)
            defer { silent.close() }
            // Sixteen transports make each getStats answer a few kilobytes from a request of a
            // few dozen bytes: far more than the socket buffers hold, so the relay's queue for
            // this connection must overflow.
            silent.sendText(
                #"{"id":"j","method":"joinRoom","params":{"token":"\#(TestRelay.token(room: "slow", user: "silent"))","roomId":"slow","userId":"silent"}}"#)
            for index in 0..<16 { silent.sendText(#"{"id":"t\#(index)","method":"createTransport","params":{}}"#) }
            var sent = 0
            while sent < 40000, silent.sendText(#"{"id":\#(sent),"method":"getStats","params":{"roomId":"slow"}}"#) { sent += 1 }
            print("slow reader: cut after \(sent) requests")
            // A busy machine takes a while to answer tens of thousands of requests before the queue overflows.
            try await relay.waitForMetric("pkrelay_limit_refusals_total{limit=\"slow_reader\"}", timeout: .seconds(40)) { $0 == 1 }
            #expect(try await Self.refusals(relay, .requestFlood) == 0)
            try await relay.waitForMetric("pkrelay_connections") { $0 == 1 }
            // The relay stayed responsive for everyone else.
            let stats: GetStatsResult = try await watcher.request("getStats", GetStatsParams(roomId: "slow"))
            #expect(stats.transports.isEmpty)
            await watcher.close()
        }
    }

    @Test("admin.maxBodyBytes: a larger body is answered 413 and counted")
    func adminBodyLimit() async throws {
        try await TestRelay.with({ $0.adminMaxBodyBytes = 2048 }) { relay in
            let client = try await relay.join(room: "ab", user: "u")
            let body = #"{"reason":"\#(String(repeating: "x", count: 3000))"}"#
            let reply = try await AdminHTTPClient.send(
                port: relay.ports.admin, method: "POST", path: "/admin/v1/rooms/ab/dismiss", token: AdminAPITests.adminToken(), body: body)
            #expect(reply.status == 413)
            #expect(reply.body.contains("2048"), "\(reply.body)")
            #expect(try await Self.refusals(relay, .adminBody) == 1)
            // The room was not dismissed; a body within the limit is.
            #expect(!(await client.isClosed))
            let accepted = try await AdminHTTPClient.send(
                port: relay.ports.admin, method: "POST", path: "/admin/v1/rooms/ab/dismiss", token: AdminAPITests.adminToken(), body: #"{"reason":"ok"}"#)
            #expect(accepted.status == 200, "\(accepted.body)")
            await client.close()
        }
    }
}
