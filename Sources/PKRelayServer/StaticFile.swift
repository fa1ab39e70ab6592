import Foundation
import Hummingbird
import NIOCore

/// A file shipped in the relay's resources (the demo pages, the web SDK), served by name only:
/// no paths, no traversal, a content type from the extension.
enum StaticFile {
    /// File names that may be served; anything else is 404.
    static func isServable(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy {
                ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || "._-".unicodeScalars.contains($0)
            }
    }

    static func contentType(of name: String) -> String {
        if name.hasSuffix(".d.ts") { return "application/typescript; charset=utf-8" }
        return switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "md": "text/markdown; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    /// The resource directory `name` of the relay's bundle, if it was shipped.
    static func directory(_ name: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: nil)
    }

    static func response(_ name: String, in directory: URL?, missing: String) -> Response {
        guard isServable(name), let directory, let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
            return text(.notFound, missing)
        }
        var headers = HTTPFields()
        headers[.contentType] = contentType(of: name)
        headers[.cacheControl] = "no-cache"
        // The SDK is an ES module that pages served elsewhere import across origins.
        headers[.accessControlAllowOrigin] = "*"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func text(_ status: HTTPResponse.Status, _ body: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
