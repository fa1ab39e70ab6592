import Auth
import Foundation
import Hummingbird
import NIOCore
import Protocol

/// The browser PK demo at `/demo/`: static pages shipped with the relay, and a token endpoint
/// that exists only while the relay signs with its built-in development key, so a real
/// deployment (with `auth.keys`) never hands out tokens.
struct DemoRoutes: Sendable {
    let configuration: RelayConfiguration

    func register<Context: RequestContext>(on router: Router<Context>) {
        let directory = StaticFile.directory("Demo")
        let configuration = self.configuration
        router.get("/demo/") { _, _ in StaticFile.response("index.html", in: directory, missing: "no such demo file\n") }
        router.get("/demo/token") { request, _ -> Response in
            guard configuration.usesDevelopmentKey else {
                return StaticFile.text(.notFound, "the demo token endpoint exists only while the relay uses its development key\n")
            }
            let room = request.uri.queryParameters.get("room") ?? ""
            let user = request.uri.queryParameters.get("user") ?? ""
            guard RelayIdentifier.isValid(room), RelayIdentifier.isValid(user) else {
                return StaticFile.text(.badRequest, "room and user must be 1-128 characters of letters, digits and ._-@:\n")
            }
            let now = Int64(Date().timeIntervalSince1970)
            let token = TokenMinter(key: configuration.mintingKey).mint(TokenClaims(sub: user, room: room, exp: now + 3600, nbf: now - 1, iat: now))
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.cacheControl] = "no-store"
            // A page served elsewhere (a developer's own, on another port) may ask too: with the
            // development key anyone who reaches the relay can have tokens anyway.
            headers[.accessControlAllowOrigin] = "*"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "{\"token\":\"\(token)\"}")))
        }
        router.get("/demo/{name}") { _, context -> Response in
            StaticFile.response(context.parameters.get("name") ?? "", in: directory, missing: "no such demo file\n")
        }
    }
}
