import Foundation
import Hummingbird
import NIOCore
import Protocol

/// WHIP (`/whip`, RFC 9725) and its egress sibling WHEP (`/whep/{publisher}`, sessions under
/// `/whep/session/`) on the control listener. `POST` an SDP offer with the room server's token as `Authorization: Bearer`; the
/// answer comes back with `201 Created` and the session's resource in `Location`. `DELETE` on
/// the resource ends the session, `PATCH` takes trickled candidates. Every answer carries CORS
/// headers, so a page on another origin can be a WHIP or WHEP client.
struct HTTPMediaRoutes: Sendable {
    let core: RelayCore

    func register<Context: RequestContext>(on router: Router<Context>) {
        let core = self.core
        router.post("/whip") { request, _ -> Response in
            await Self.offer(request, kind: .whip) { token, sdp in await core.whipPublish(token: token, offer: sdp) }
        }
        router.on("/whip", method: .options) { _, _ -> Response in Self.options(allowing: "POST, OPTIONS") }
        router.delete("/whip/{resource}") { _, context -> Response in
            // A session that ended answers 200 (RFC 9725), not the 204 of taken candidates.
            let answer = await core.endHTTPSession(context.parameters.get("resource") ?? "", kind: .whip)
            return answer == .done ? Response(status: .ok, headers: Self.corsHeaders) : Self.respond(answer, kind: .whip)
        }
        router.patch("/whip/{resource}") { request, context -> Response in
            await Self.patch(request, resource: context.parameters.get("resource") ?? "", kind: .whip, core: core)
        }
        router.on("/whip/{resource}", method: .options) { _, _ -> Response in Self.options(allowing: "PATCH, DELETE, OPTIONS") }
        router.post("/whep/{publisher}") { request, context -> Response in
            let publisher = context.parameters.get("publisher") ?? ""
            return await Self.offer(request, kind: .whep) { token, sdp in await core.whepPlay(token: token, publisher: publisher, offer: sdp) }
        }
        router.on("/whep/{publisher}", method: .options) { _, _ -> Response in Self.options(allowing: "POST, OPTIONS") }
        router.delete("/whep/session/{resource}") { _, context -> Response in
            let answer = await core.endHTTPSession(context.parameters.get("resource") ?? "", kind: .whep)
            return answer == .done ? Response(status: .ok, headers: Self.corsHeaders) : Self.respond(answer, kind: .whep)
        }
        router.patch("/whep/session/{resource}") { request, context -> Response in
            await Self.patch(request, resource: context.parameters.get("resource") ?? "", kind: .whep, core: core)
        }
        router.on("/whep/session/{resource}", method: .options) { _, _ -> Response in Self.options(allowing: "PATCH, DELETE, OPTIONS") }
    }

    /// Reads an offer (`application/sdp`, at most ``RelayCore/maximumOfferBytes``) and a Bearer
    /// token, and answers what `body` decides.
    static func offer(_ request: Request, kind: HTTPMediaSession.Kind, _ body: (String, String) async -> HTTPMediaAnswer) async -> Response {
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("application/sdp") else {
            return respond(.refused(status: 415, message: "the offer must be sent as application/sdp"), kind: kind)
        }
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            return respond(.refused(status: 401, message: "send the room server's token as Authorization: Bearer TOKEN"), kind: kind)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: RelayCore.maximumOfferBytes)
        } catch {
            return respond(.refused(status: 413, message: "the offer is larger than \(RelayCore.maximumOfferBytes) bytes"), kind: kind)
        }
        let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        return respond(await body(token, String(buffer: buffer)), kind: kind)
    }

    /// A PATCH with a trickle-ice-sdpfrag.
    static func patch(_ request: Request, resource: String, kind: HTTPMediaSession.Kind, core: RelayCore) async -> Response {
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("application/trickle-ice-sdpfrag") else {
            return respond(.refused(status: 415, message: "a PATCH carries application/trickle-ice-sdpfrag"), kind: kind)
        }
        let fragment: String
        do {
            fragment = String(buffer: try await request.body.collect(upTo: RelayCore.maximumOfferBytes))
        } catch {
            return respond(.refused(status: 413, message: "the fragment is larger than \(RelayCore.maximumOfferBytes) bytes"), kind: kind)
        }
        return respond(await core.patchHTTPSession(resource, kind: kind, fragment: fragment), kind: kind)
    }

    /// The HTTP response for an answer.
    static func respond(_ answer: HTTPMediaAnswer, kind: HTTPMediaSession.Kind) -> Response {
        var headers = corsHeaders
        switch answer {
        case .created(let resource, let sdp, let iceServers):
            headers[.contentType] = "application/sdp"
            for link in iceServers.flatMap(linkValues(of:)) { headers.append(HTTPFields.Element(name: HTTPFields.Element.Name("Link")!, value: link)) }
            headers[.location] = kind == .whip ? "/whip/\(resource)" : "/whep/session/\(resource)"
            headers[HTTPFields.Element.Name("Accept-Patch")!] = "application/trickle-ice-sdpfrag"
            return Response(status: .created, headers: headers, body: .init(byteBuffer: ByteBuffer(string: sdp)))
        case .redirect(let location):
            headers[.location] = location
            return Response(status: .temporaryRedirect, headers: headers)
        case .done:
            return Response(status: .noContent, headers: headers)
        case .fragment(let fragment, let etag):
            headers[.contentType] = "application/trickle-ice-sdpfrag"
            headers[.eTag] = "\"\(etag)\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: fragment)))
        case .refused(let status, let message):
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(status: HTTPResponse.Status(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
        }
    }

    /// An ICE server as RFC 9725 section 4.6 writes it: one `Link` value per URL, with
    /// `rel="ice-server"` and, for TURN, the credentials.
    static func linkValues(of server: ICEServer) -> [String] {
        server.urls.map { url in
            var value = "<\(url)>; rel=\"ice-server\""
            if let username = server.username, let credential = server.credential {
                value += "; username=\"\(quoted(username))\"; credential=\"\(quoted(credential))\"; credential-type=\"password\""
            }
            return value
        }
    }

    /// A value inside a quoted string (RFC 9110 section 5.6.4).
    static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    static func options(allowing methods: String) -> Response {
        var headers = corsHeaders
        headers[.allow] = methods
        headers[HTTPFields.Element.Name("Accept-Post")!] = "application/sdp"
        return Response(status: .noContent, headers: headers)
    }

    /// What a browser needs to call the endpoints from a page of another origin and read the
    /// answer's headers.
    static var corsHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.accessControlAllowOrigin] = "*"
        headers[.accessControlAllowMethods] = "POST, PATCH, DELETE, OPTIONS"
        headers[.accessControlAllowHeaders] = "Authorization, Content-Type, If-Match"
        headers[.accessControlExposeHeaders] = "Location, Link, ETag, Accept-Patch"
        return headers
    }
}
