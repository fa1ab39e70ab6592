import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import PKRelayServer

/// hummingbird-websocket stores the matched upgrade handler, with a copy of the request context,
/// in the context's own handler reference: a cycle that leaked every control connection's context
/// (found by a soak: RSS grew about 600 bytes per connection). The control listener breaks it once
/// the connection is upgraded.
@Suite("Control connection contexts")
struct ControlContextLeakTests {
    /// Routes an upgrade request for /rtc the way the control listener does and returns a weak
    /// view of the context's holder; `release` does what the listener's onUpgrade does.
    static func upgrade(release: Bool) async throws -> WeakHolder {
        let router = Router(context: ControlRequestContext.self)
        router.ws("/rtc") { _, _ in
            .upgrade([:])
        } onUpgrade: { _, _, _ in
        }
        let responder = router.buildResponder()
        let channel = EmbeddedChannel()
        let context = ControlRequestContext(source: .init(channel: channel, logger: Logger(label: "test")))
        let weak = WeakHolder(context.holder)
        let request = Request(head: .init(method: .get, scheme: "http", authority: "127.0.0.1", path: "/rtc"), body: .init(buffer: ByteBuffer()))
        let response = try await responder.respond(to: request, context: context)
        #expect(response.status == .ok)
        if release { context.releaseWebSocketReference() }
        return weak
    }

    final class WeakHolder: @unchecked Sendable {
        weak var holder: WebSocketReferenceHolder?
        init(_ holder: WebSocketReferenceHolder) { self.holder = holder }
    }

    @Test("an upgraded connection's context is freed once the listener releases the handler reference")
    func contextFreedAfterRelease() async throws {
        let weak = try await Self.upgrade(release: true)
        #expect(weak.holder == nil, "the request context outlived its connection")
    }

    @Test("without the release the library's cycle keeps the context (drop this workaround when it does not)")
    func libraryCycleStillThere() async throws {
        let weak = try await Self.upgrade(release: false)
        #expect(weak.holder != nil, "hummingbird-websocket no longer keeps the context: the release may go")
        weak.holder?.release()
    }
}
