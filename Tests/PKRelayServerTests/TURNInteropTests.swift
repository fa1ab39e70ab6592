import Foundation
import PKRelayServer
import Testing

/// Clients that reach the relay only through TURN (a network that blocks UDP to the relay):
/// aiortc peers restricted to relayed candidates (iceTransportPolicy "relay"), given the coturn
/// server and the credentials the relay minted in createTransport's result, over TURN/UDP and
/// TURN/TCP to a real coturn.
extension RealClientInterop {
    @Suite("TURN: clients through coturn", .serialized, .timeLimit(.minutes(2)))
    struct TURNInteropTests {
        static let enabled = WebRTCPeerProcess.isAvailable && TURNServerProcess.isAvailable
        static let reason: Comment = "python3 with aiortc or coturn is not installed (make test installs both)"

        @Test(
            "a publisher and a viewer that reach the relay only through TURN see each other", .enabled(if: enabled, reason),
            arguments: ["udp", "tcp"])
        func mediaThroughTURN(transport: String) async throws {
            try await RealClientInterop.WebRTCInteropTests.withDirectory { directory in
                let turn = try TURNServerProcess(directory: directory)
                defer { turn.stop() }
                try await turn.waitUntilListening()
                try await TestRelay.with({
                    $0.iceServers = [ICEServerConfiguration(urls: ["turn:127.0.0.1:\(turn.port)?transport=\(transport)"], secret: turn.secret)]
                }) { relay in
                    let room = "turn-\(transport)"
                    let publisher = try WebRTCPeerProcess(
                        "publisher", relay: relay, room: room, user: "alice",
                        arguments: [
                            "publish", "--relay-only", "--duration", "30",
                        ], directory: directory)
                    defer { publisher.kill() }
                    let viewer = try WebRTCPeerProcess(
                        "viewer", relay: relay, room: room, user: "viewer",
                        arguments: [
                            "subscribe", "--relay-only", "--publisher", "alice", "--min-video-frames", "30", "--min-audio-frames", "20", "--duration", "30",
                        ], directory: directory)
                    let (status, summary) = try await viewer.finish(timeout: .seconds(70))
                    #expect(status == 0, "viewer: \(summary); stderr:\n\(viewer.stderrTail)\ncoturn:\n\(turn.log.suffix(3000))")
                    #expect(WebRTCPeerProcess.frames(summary, "video", of: "alice") >= 30, "\(summary)")
                    #expect((summary["iceServers"] as? [String]) == ["turn:127.0.0.1:\(turn.port)?transport=\(transport)"], "\(summary)")
                    // coturn accepted the relay's minted credentials and relayed for both peers.
                    let log = turn.log
                    let allocations = log.components(separatedBy: "ALLOCATE processed, success").count - 1
                    #expect(allocations >= 2, "coturn allocated for both peers:\n\(log.suffix(3000))")
                    publisher.kill()
                }
            }
        }
    }
}
