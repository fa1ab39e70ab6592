import AdminAPI
import Auth
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

    /// At most this many users per kick call.
    static let maximumKickUsers = 100

    /// One admin path, the method it answers and what it does.
    typealias Route = (path: String, method: HTTPRequest.Method, handler: @Sendable (Request, BasicRequestContext) async -> Response)

    func register(on router: Router<BasicRequestContext>) {
        let group = router.group("admin/v1")
        for route in routes {
            group.on(RouterPath(route.path), method: route.method, use: route.handler)
            Self.refuseOtherMethods(on: group, path: route.path, allowed: route.method)
        }
    }

    /// Every admin path, in the order docs/openapi.yaml lists them.
    var routes: [Route] {
        [
            ("rooms", .get, { request, _ in await self.guarded(request) { await core.adminRooms() } }),
            (
                "rooms/:roomId", .get,
                { request, context in
                    await self.guarded(request) { () async throws(AdminRefusal) in try await core.adminRoom(Self.identifier("roomId", in: context)) }
                }
            ),
            (
                "rooms/:roomId/dismiss", .post,
                { request, context in
                    await self.guarded(request) { () async throws(AdminRefusal) in
                        let roomId = try Self.identifier("roomId", in: context)
                        let body = try await self.decodeBody(request, as: AdminDismissRequest.self, fields: ["reason"], required: false)
                        if let reason = body?.reason, reason.utf8.count > 256 { return .error(.badRequest, "reason must be a string of at most 256 bytes") }
                        return await core.adminDismiss(roomId: roomId, reason: body?.reason)
                    }
                }
            ),
            (
                "rooms/:roomId/kick", .post,
                { request, context in
                    await self.guarded(request) { () async throws(AdminRefusal) in
                        let roomId = try Self.identifier("roomId", in: context)
                        let body = try await self.decodeBody(request, as: AdminKickRequest.self, fields: ["userIds"], required: true)
                        guard let list = body?.userIds, (1...Self.maximumKickUsers).contains(list.count) else {
                            return .error(.badRequest, "userIds must be a list of 1 to \(Self.maximumKickUsers) user ids")
                        }
                        var userIds: [String] = []
                        for item in list {
                            guard let userId = Self.identifier(item) else { return .error(.badRequest, "userIds must hold user ids (\(Self.identifierRule))") }
                            if !userIds.contains(userId) { userIds.append(userId) }
                        }
                        return await core.adminKick(roomId: roomId, userIds: userIds)
                    }
                }
            ),
            (
                "rooms/:roomId/users/:userId/stop-forwarding", .post,
                { request, context in
                    await self.guarded(request) { () async throws(AdminRefusal) in
                        try await core.adminStopForwarding(roomId: Self.identifier("roomId", in: context), userId: Self.identifier("userId", in: context))
                    }
                }
            ),
            (
                "rooms/:roomId/placement", .post,
                { request, context in
                    await self.guarded(request) { () async throws(AdminRefusal) in
                        let roomId = try Self.identifier("roomId", in: context)
                        let body = try await self.decodeBody(request, as: AdminPlacementRequest.self, fields: ["role", "userId"], required: false)
                        let userId = body?.userId.flatMap(Self.identifier)
                        if body?.userId != nil, userId == nil { return .error(.badRequest, "userId must be a user id (\(Self.identifierRule))") }
                        if body?.role == .audience, userId == nil {
                            return .error(.badRequest, "an audience placement needs the viewer's userId (\(Self.identifierRule))")
                        }
                        let viewer = body?.role == .audience ? userId : nil
                        return await core.adminPlacement(roomId, controlURL: await self.localControlURL(), viewer: viewer)
                    }
                }
            ),
            ("stats", .get, { request, _ in await self.guarded(request) { await core.adminStats() } }),
        ]
    }

    /// A method the path does not answer gets 405 with `Allow`, not 404: the path exists.
    static func refuseOtherMethods(on group: RouterGroup<BasicRequestContext>, path: String, allowed: HTTPRequest.Method) {
        let others = ([.get, .post, .put, .patch, .delete, .options, .trace] + [HTTPRequest.Method("QUERY")].compactMap { $0 }).filter { $0 != allowed }
        for method in others {
            group.on(RouterPath(path), method: method) { _, _ -> Response in
                var response = Self.response(.error(.methodNotAllowed, "this path answers \(allowed.rawValue) only"))
                response.headers[.allow] = allowed.rawValue
                return response
            }
        }
    }

    /// The control URL of this node as a single relay: the configured public URL, else the
    /// control listener's bound address.
    func localControlURL() async -> String {
        let configuration = core.configuration
        if !configuration.cluster.publicControlURL.isEmpty { return configuration.cluster.publicControlURL }
        return "ws://\(configuration.controlHost):\(await ports.wait().control)/rtc"
    }

    /// Rate limit, then authorisation, then the operation; the answer as an HTTP response (a
    /// refused path id or body answers with its refusal).
    func guarded(_ request: Request, _ operation: () async throws(AdminRefusal) -> AdminResponse) async -> Response {
        let nowMs = core.nowMs()
        guard gate.allow(nowMs: nowMs) else {
            core.refusals.count(.adminRate)
            var response = Self.response(.error(.rateLimited, "too many admin requests; retry after a second"))
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
            return Self.response(.error(.forbidden, "the token has no admin grant"))
        case .success:
            do {
                return Self.response(try await operation())
            } catch {
                return Self.response(error.response)
            }
        }
    }

    static func response(_ answer: AdminResponse) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    static func unauthorized(_ message: String) -> Response {
        var response = response(.error(.unauthorized, message))
        response.headers[.wwwAuthenticate] = "Bearer realm=\"pkrelay-admin\""
        return response
    }

    /// A room or user id from the path, percent-decoded first: a room server that encodes
    /// `@` or `:` as `%40` or `%3A` names the same room.
    static func identifier(_ text: String?) -> String? {
        guard let text, let decoded = text.removingPercentEncoding, RelayIdentifier.isValid(decoded) else { return nil }
        return decoded
    }

    /// The id rule as the admin API's refusals word it.
    static let identifierRule = "1-128 letters, digits and . _ - @ :"

    /// The path parameter `name` as a room or user id, or a refusal naming it.
    static func identifier(_ name: String, in context: BasicRequestContext) throws(AdminRefusal) -> String {
        guard let id = identifier(context.parameters.get(name)) else {
            throw AdminRefusal(response: .error(.badRequest, "\(name) must be \(identifierRule)"))
        }
        return id
    }

    /// Reads the body as `Body`: nil for an empty body unless `required`; a refusal naming the
    /// problem for a body that is too large, not a JSON object, has a field other than
    /// `fields` or a null, or does not decode.
    func decodeBody<Body: Decodable>(_ request: Request, as type: Body.Type, fields: Set<String>, required: Bool) async throws(AdminRefusal) -> Body? {
        let buffer: ByteBuffer
        let limit = core.configuration.adminMaxBodyBytes
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            core.refusals.count(.adminBody)
            throw AdminRefusal(response: .error(.payloadTooLarge, "the body is larger than \(limit) bytes (admin.maxBodyBytes)"))
        }
        if buffer.readableBytes == 0 {
            guard !required else { throw AdminRefusal(response: .error(.badRequest, "a JSON object body is required")) }
            return nil
        }
        let data = Data(buffer.readableBytesView)
        guard let object = try? JSONSerialization.jsonObject(with: data) else {
            throw AdminRefusal(response: .error(.badRequest, "the body is not valid JSON"))
        }
        guard let mapping = object as? [String: Any] else { throw AdminRefusal(response: .error(.badRequest, "the body must be a JSON object")) }
        if let unknown = mapping.keys.sorted().first(where: { !fields.contains($0) }) {
            throw AdminRefusal(response: .error(.badRequest, "unknown field '\(unknown)'"))
        }
        // Codable reads null as an absent optional; the document allows no nulls.
        if let null = mapping.keys.sorted().first(where: { mapping[$0] is NSNull }) {
            throw AdminRefusal(response: .error(.badRequest, "\(null) must not be null; leave it out instead"))
        }
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch let error as DecodingError {
            throw AdminRefusal(response: .error(.badRequest, error.message(root: "body")))
        } catch {
            throw AdminRefusal(response: .error(.badRequest, "the body is invalid"))
        }
    }
}
