import AdminAPI
import Foundation
import PKRelayClient
import PKRelayServer
import Protocol
import Testing

/// The admin API's models against docs/openapi.yaml: one model per object schema, each field
/// a property of its schema and back; live answers decode into the models; and schemathesis
/// (a property-based API tester from PyPI) generates calls from the document and checks every
/// answer of a running relay against it.
@Suite(.timeLimit(.minutes(3)))
struct AdminSchemaTests {
    /// A value of every model with every optional field set, by schema name.
    static let samples: [String: any Encodable & Sendable] = {
        let track = AdminTrack(kind: .video, ssrc: 4_294_967_295, codec: "VP8", payloadType: 96)
        let stream = AdminStream(streamIndex: .main, mediaType: 3, tracks: [track])
        let estimate = BandwidthEstimateStats(
            source: "transport_wide", estimateBps: 1_200_000, delayBasedBps: 1_200_000, lossBasedBps: 1_500_000, acknowledgedBps: 1_100_000,
            delaySignal: "normal", lossFraction: 0.01, roundTripTimeMs: 42.5, feedbacks: 120)
        let subscription = AdminSubscription(
            publisherUserId: "bob", streamIndex: .screen, mediaType: 2, transportId: 3, bandwidthEstimate: estimate, videoStreamType: .small, videoEnabled: true
        )
        let user = AdminUser(
            userId: "alice", role: .anchor, visible: true, forwardedFrom: "r2", tokenExpiresAt: 1_800_000_000,
            streams: [stream], subscriptions: [subscription], nodeId: "relay-2")
        let forward = AdminForward(
            roomId: "r1", userId: "alice", targetRoomId: "r3", direction: .out, state: .forwarding, startedAt: 1_800_000_000_000,
            firstKeyframeDelivered: true)
        let link = AdminLink(linkId: 1, roomId: "r1", userId: "alice", peerRoomId: "r2", peerUserId: "bob", state: .connected, startedAt: 1_800_000_000_000)
        let summary = AdminRoomSummary(roomId: "r1", users: 2, forwardedUsers: 1, visibleUsers: 2, streams: 1, forwardsOut: 1, forwardsIn: 0, links: 1)
        let media = AdminMediaStats(
            transports: 1, sources: 2, sinks: 3, packetsIn: 4, bytesIn: 5, packetsOut: 6, bytesOut: 7, dropped: ["unexpected_source": 1])
        let webhooks = AdminWebhookStats(enqueued: 1, delivered: 1, failedAttempts: 0, givenUp: 0, dropped: 0, queued: 0)
        let cluster = AdminClusterStats(
            nodeId: "n1", serving: true, leaseEpoch: 3, rooms: 1, leaseLosses: 0, renewalFailures: 0, redirects: 2, peers: ["n2"], peerLosses: 0)
        let detail = AdminErrorDetail(code: .notFound, message: "no room 'x'")
        return [
            "Track": track, "Stream": stream, "Subscription": subscription, "BandwidthEstimate": estimate, "User": user, "Forward": forward, "Link": link,
            "RoomSummary": summary, "RoomList": AdminRoomList(rooms: [summary]),
            "RoomDetail": AdminRoomDetail(roomId: "r1", users: [user], forwards: [forward], links: [link]),
            "MediaStats": media, "WebhookStats": webhooks, "ClusterStats": cluster,
            "Stats": AdminStats(
                rooms: 1, users: 2, streams: 1, subscriptions: 1, forwards: 1, links: 1, connections: 2, transports: 1, udpPorts: 1,
                accepting: true, media: media, webhooks: webhooks, cluster: cluster),
            "DismissRequest": AdminDismissRequest(reason: "over"), "DismissResult": AdminDismissResult(roomId: "r1", usersRemoved: 2),
            "KickRequest": AdminKickRequest(userIds: ["bob"]), "KickResult": AdminKickResult(roomId: "r1", kicked: ["bob"], notFound: ["eve"]),
            "StopForwardingResult": AdminStopForwardingResult(roomId: "r1", userId: "alice", forwardsStopped: 1, linksEnded: 1),
            "Placement": AdminPlacement(roomId: "r1", nodeId: "n1", controlURL: "ws://relay-1:7700/rtc", epoch: 7, roomNodeId: "n2"),
            "PlacementRequest": AdminPlacementRequest(role: .audience, userId: "viewer-1"),
            "ErrorDetail": detail, "Error": AdminError(error: detail),
        ]
    }()

    static let modelCheck = #"""
        import json, sys, yaml
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
        from openapi_schema_validator import OAS31Validator
        spec = yaml.safe_load(open(sys.argv[1]))
        schemas = spec["components"]["schemas"]
        registry = Registry().with_resource("urn:pkrelay", Resource.from_contents(spec, default_specification=DRAFT202012))
        samples = json.load(sys.stdin)
        problems = []
        objects = {name for name, schema in schemas.items() if schema.get("type") == "object"}
        for name in sorted(objects - samples.keys()):
            problems.append(f"schema {name} has no model")
        for name in sorted(samples.keys() - objects):
            problems.append(f"model for {name} has no object schema")
        for name, sample in samples.items():
            if name not in objects:
                continue
            validator = OAS31Validator({"$ref": "urn:pkrelay#/components/schemas/" + name}, registry=registry)
            for error in validator.iter_errors(sample):
                problems.append(f"{name}: {error.message} at {list(error.absolute_path)}")
            for field in schemas[name].get("properties", {}):
                if field not in sample:
                    problems.append(f"{name}.{field} is not a field of the model")
        print("\n".join(problems))
        """#

    @Test func everyObjectSchemaHasAModelAndEveryModelMatchesItsSchema() async throws {
        let encoder = JSONEncoder()
        var encoded: [String: String] = [:]
        for (name, sample) in Self.samples { encoded[name] = String(decoding: try encoder.encode(sample), as: UTF8.self) }
        let document = "{" + encoded.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        let outcome = try await PythonProcess.run(["-c", Self.modelCheck, AdminOpenAPICheck.specURL.path], input: Data(document.utf8))
        #expect(outcome.status == 0 && outcome.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(outcome.output)\(outcome.errors)")
    }

    /// Rooms with users, a PK link and a forward, so that generated calls reach real rooms.
    static func seed(_ relay: TestRelay) async throws -> [ControlClient] {
        let alice = try await relay.join(room: "st-a", user: "alice")
        let carol = try await relay.join(room: "st-a", user: "carol")
        let bob = try await relay.join(room: "st-b", user: "bob")
        let _: ConnectOtherRoomEvent = try await alice.request("connectOtherRoom", ConnectOtherRoomParams(roomId: "st-b", userId: "bob"))
        let _: ForwardStreamResult = try await alice.request(
            "startForwardStreamToRooms",
            StartForwardParams(
                roomId: "st-a", targets: [ForwardTargetParams(roomId: "st-c", token: TestRelay.token(room: "st-c", user: "alice"))]))
        return [alice, carol, bob]
    }

    @Test func liveAnswersDecodeIntoTheModels() async throws {
        try await TestRelay.with { relay in
            let clients = try await Self.seed(relay)
            let token = AdminAPITests.adminToken()
            func get<Model: Decodable>(_ path: String, method: String = "GET", as type: Model.Type) async throws -> Model {
                let reply = try await AdminHTTPClient.send(port: relay.ports.admin, method: method, path: path, token: token, headers: [:], body: nil)
                return try JSONDecoder().decode(Model.self, from: Data(reply.body.utf8))
            }
            let list = try await get("/admin/v1/rooms", as: AdminRoomList.self)
            #expect(list.rooms.map(\.roomId) == ["st-a", "st-b", "st-c"])
            let room = try await get("/admin/v1/rooms/st-a", as: AdminRoomDetail.self)
            #expect(room.links.first?.peerUserId == "bob" && room.forwards.first?.direction == .out)
            #expect(room.users.first { $0.userId == "bob" }?.forwardedFrom == "st-b")
            let stats = try await get("/admin/v1/stats", as: AdminStats.self)
            #expect(stats.links == 1 && stats.forwards == 1 && stats.connections == 3 && stats.cluster == nil)
            // Ids percent-encoded in the path name the same room.
            let encoded = try await get("/admin/v1/rooms/st%2Da", as: AdminRoomDetail.self)
            #expect(encoded.roomId == "st-a")
            let missing = try await get("/admin/v1/rooms/nowhere", as: AdminError.self)
            #expect(missing.error.code == .notFound)
            let wrongMethod = try await AdminHTTPClient.send(
                port: relay.ports.admin, method: "DELETE", path: "/admin/v1/stats", token: token, headers: [:], body: nil)
            #expect(wrongMethod.status == 405 && wrongMethod.headers["allow"] == "GET")
            let placement = try await get("/admin/v1/rooms/st-z/placement", method: "POST", as: AdminPlacement.self)
            #expect(placement.controlURL == relay.controlURL)
            for client in clients { await client.close() }
        }
    }

    @Test func schemathesisFindsNoAnswerOutsideTheDocument() async throws {
        try await TestRelay.with({ $0.adminRequestsPerSecond = 100_000 }) { relay in
            let clients = try await Self.seed(relay)
            let outcome = try await PythonProcess.run(
                [
                    "-m", "schemathesis.cli", "run", AdminOpenAPICheck.specURL.path, "--url", "http://127.0.0.1:\(relay.ports.admin)",
                    "-H", "Authorization: Bearer \(AdminAPITests.adminToken())", "--checks", "all",
                    "--max-examples", "25", "--seed", "20261126", "--workers", "1", "--no-color",
                ],
                input: Data())
            #expect(outcome.status == 0, "\(outcome.output)\(outcome.errors)")
            #expect(outcome.output.contains("Tested: 7"), "\(outcome.output)")
            for client in clients { await client.close() }
        }
    }
}
