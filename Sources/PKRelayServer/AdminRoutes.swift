import Foundation
import Hummingbird
import Logging
import NIOCore
import Protocol

/// The admin API under `/admin/v1` (see docs/openapi.yaml). Every call is rate limited, then
/// needs `Authorization: Bearer TOKEN` with a token carrying the admin grant (401 without a
/// valid token, 403 without the grant).
struct AdminRoutes: Sendable {
    let core: RelayCore
    let gate: AdminRateGate
    let ports: PortWaiter
    let logger: Logger

    /// The largest request body accepted.
    /// At most this many users per kick call.
    static let maximumKickUsers = 100

    func register(on router: Router<BasicRequestContext>) {
        let group = router.group("admin/v1")
        group.get("rooms") { request, _ in await self.guarded(request) { await core.adminRooms() } }
        group.get("rooms/:roomId") { request, context in
            await self.guarded(request) {
                guard let roomId = Self.identifier(context.parameters.get("roomId")) else { return Self.badIdentifier("roomId") }
                return await core.adminRoom(roomId)
            }
        }
        group.post("rooms/:roomId/dismiss") { request, context in
            await self.guarded(request) {
                guard let roomId = Self.identifier(context.parameters.get("roomId")) else { return Self.badIdentifier("roomId") }
                let (body, rejection) = await self.jsonObject(request, required: false)
                if let rejection { return rejection }
                if let unknown = body.keys.first(where: { $0 != "reason" }) { return .error(400, "bad_request", "unknown field '\(unknown)'") }
                var reason: String?
                if let value = body["reason"] {
                    guard let text = value as? String, text.utf8.count <= 256 else { return .error(400, "bad_request", "reason must be a string of at most 256 bytes") }
                    reason = text
                }
                return await core.adminDismiss(roomId: roomId, reason: reason)
            }
        }
        group.post("rooms/:roomId/kick") { request, context in
            await self.guarded(request) {
                guard let roomId = Self.identifier(context.parameters.get("roomId")) else { return Self.badIdentifier("roomId") }
                let (body, rejection) = await self.jsonObject(request, required: true)
                if let rejection { return rejection }
                if let unknown = body.keys.first(where: { $0 != "userIds" }) { return .error(400, "bad_request", "unknown field '\(unknown)'") }
                guard let list = body["userIds"] as? [Any], (1...Self.maximumKickUsers).contains(list.count) else {
                    return .error(400, "bad_request", "userIds must be a list of 1 to \(Self.maximumKickUsers) user ids")
                }
                var userIds: [String] = []
                for item in list {
                    guard let userId = Self.identifier(item as? String) else { return .error(400, "bad_request", "userIds must hold user ids (1-128 letters, digits and . _ - @ :)") }
                    if !userIds.contains(userId) { userIds.append(userId) }
                }
                return await core.adminKick(roomId: roomId, userIds: userIds)
            }
        }
        group.post("rooms/:roomId/users/:userId/stop-forwarding") { request, context in
            await self.guarded(request) {
                guard let roomId = Self.identifier(context.parameters.get("roomId")) else { return Self.badIdentifier("roomId") }
                guard let userId = Self.identifier(context.parameters.get("userId")) else { return Self.badIdentifier("userId") }
                return await core.adminStopForwarding(roomId: roomId, userId: userId)
            }
        }
        group.post("rooms/:roomId/placement") { request, context in
            await self.guarded(request) {
                guard let roomId = Self.identifier(context.parameters.get("roomId")) else { return Self.badIdentifier("roomId") }
                return await core.adminPlacement(roomId, controlURL: await self.localControlURL())
            }
        }
        group.get("stats") { request, _ in await self.guarded(request) { await core.adminStats() } }
    }

    /// The control URL of this node as a single relay: the configured public URL, else the
    /// control listener's bound address.
    func localControlURL() async -> String {
        let configuration = core.configuration
        if !configuration.cluster.publicControlURL.isEmpty { return configuration.cluster.publicControlURL }
        return "ws://\(configuration.controlHost):\(await ports.wait().control)/rtc"
    }

    /// Rate limit, then authorisation, then the operation; the answer as an HTTP response.
    func guarded(_ request: Request, _ operation: () async -> AdminResponse) async -> Response {
        let nowMs = core.nowMs()
        guard gate.allow(nowMs: nowMs) else {
            core.refusals.count(.adminRate)
            var response = Self.response(.error(429, "rate_limited", "too many admin requests; retry after a second"))
            response.headers[.retryAfter] = "1"
            return response
        }
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            return Self.unauthorized("send Authorization: Bearer TOKEN with an admin token (pkrelay token --admin)")
        }
        let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        switch core.verifier.verify(token, nowSeconds: nowMs / 1000) {
        case .failure(let error):
            return Self.unauthorized(error.message)
        case .success(let claims) where !claims.effectiveGrants.isAdmin:
            logger.notice("admin API call without the admin grant", metadata: ["user": "\(claims.sub)", "path": "\(request.uri.path)"])
            return Self.response(.error(403, "forbidden", "the token has no admin grant"))
        case .success:
            return Self.response(await operation())
        }
    }

    static func response(_ answer: AdminResponse) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    static func unauthorized(_ message: String) -> Response {
        var response = response(.error(401, "unauthorized", message))
        response.headers[.wwwAuthenticate] = "Bearer realm=\"pkrelay-admin\""
        return response
    }

    static func identifier(_ text: String?) -> String? {
        guard let text, RelayIdentifier.isValid(text) else { return nil }
        return text
    }

    static func badIdentifier(_ name: String) -> AdminResponse {
        .error(400, "bad_request", "\(name) must be 1-128 letters, digits and . _ - @ :")
    }

    /// Reads the body as a JSON object (an empty body is an empty object unless `required`), or
    /// the answer refusing it.
    func jsonObject(_ request: Request, required: Bool) async -> ([String: Any], AdminResponse?) {
        let buffer: ByteBuffer
        let limit = core.configuration.adminMaxBodyBytes
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            core.refusals.count(.adminBody)
            return ([:], .error(413, "payload_too_large", "the body is larger than \(limit) bytes (admin.maxBodyBytes)"))
        }
        if buffer.readableBytes == 0 {
            return ([:], required ? .error(400, "bad_request", "a JSON object body is required") : nil)
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) else {
            return ([:], .error(400, "bad_request", "the body is not valid JSON"))
        }
        guard let mapping = object as? [String: Any] else { return ([:], .error(400, "bad_request", "the body must be a JSON object")) }
        return (mapping, nil)
    }
}
