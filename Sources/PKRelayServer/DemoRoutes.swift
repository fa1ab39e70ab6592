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

    /// File names the demo may serve; anything else is 404 (no paths, no traversal).
    static func isServable(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.unicodeScalars.allSatisfy {
            ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || "._-".unicodeScalars.contains($0)
        }
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    func register<Context: RequestContext>(on router: Router<Context>) {
        let directory = Bundle.module.url(forResource: "Demo", withExtension: nil)
        let configuration = self.configuration
        router.get("/demo/") { _, _ in Self.file("index.html", in: directory) }
        router.get("/demo/token") { request, _ -> Response in
            guard configuration.usesDevelopmentKey else {
                return Self.text(.notFound, "the demo token endpoint exists only while the relay uses its development key\n")
            }
            let room = request.uri.queryParameters.get("room") ?? ""
            let user = request.uri.queryParameters.get("user") ?? ""
            guard RelayIdentifier.isValid(room), RelayIdentifier.isValid(user) else {
                return Self.text(.badRequest, "room and user must be 1-128 characters of letters, digits and ._-@:\n")
            }
            let now = Int64(Date().timeIntervalSince1970)
            let token = TokenMinter(key: configuration.mintingKey).mint(TokenClaims(sub: user, room: room, exp: now + 3600, nbf: now - 1, iat: now))
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "{\"token\":\"\(token)\"}")))
        }
        router.get("/demo/{name}") { _, context -> Response in
            Self.file(context.parameters.get("name") ?? "", in: directory)
        }
    }

    static func file(_ name: String, in directory: URL?) -> Response {
        guard isServable(name), let directory, let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
            return text(.notFound, "no such demo file\n")
        }
        var headers = HTTPFields()
        headers[.contentType] = contentType(of: name)
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func text(_ status: HTTPResponse.Status, _ body: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
