import Foundation
import PKRelayServer
import Testing

/// The files the control port serves beside the WebSocket: the web SDK at /sdk/, the demo at
/// /demo/, by plain name only, and the development token endpoint readable from other origins.
@Suite(.timeLimit(.minutes(1)))
struct StaticRoutesTests {
    @Test func theWebSDKAndItsDeclarationsAreServed() async throws {
        try await TestRelay.with { relay in
            let port = relay.ports.control
            let module = try await AdminHTTPClient.send(port: port, method: "GET", path: "/sdk/pkrelay.js")
            #expect(module.status == 200)
            #expect(module.headers["content-type"]?.hasPrefix("text/javascript") == true)
            #expect(module.headers["access-control-allow-origin"] == "*")
            #expect(module.body.contains("export class PKRelayClient"))
            let declarations = try await AdminHTTPClient.send(port: port, method: "GET", path: "/sdk/pkrelay.d.ts")
            #expect(declarations.status == 200 && declarations.body.contains("PKRelayClient"))
            for path in ["/sdk/missing.js", "/sdk/..%2FDemoRoutes.swift", "/sdk/.hidden", "/sdk/a%20b.js"] {
                #expect(try await AdminHTTPClient.send(port: port, method: "GET", path: path).status == 404, "\(path)")
            }
            // The demo is built on the SDK it is served beside.
            let demo = try await AdminHTTPClient.send(port: port, method: "GET", path: "/demo/anchor.js")
            #expect(demo.status == 200 && demo.body.contains("from '../sdk/pkrelay.js'"))
        }
    }

    @Test func theDevelopmentTokenEndpointAnswersOtherOrigins() async throws {
        try await TestRelay.with { relay in
            let reply = try await AdminHTTPClient.send(port: relay.ports.control, method: "GET", path: "/demo/token?room=r1&user=u1")
            #expect(reply.status == 200)
            #expect(reply.headers["access-control-allow-origin"] == "*")
            #expect(reply.json?["token"] is String)
        }
    }
}
