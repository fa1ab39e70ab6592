import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 GET over a blocking socket with a receive timeout: enough for the admin
/// endpoints, without pulling in an HTTP client.
enum HTTPGet {
    struct Failure: Error { var reason: String }

    /// Runs the blocking exchange on its own thread: blocking a thread of Swift's small
    /// cooperative pool could starve the in-process relay that has to answer.
    static func fetch(host: String, port: Int, path: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try fetchBlocking(host: host, port: port, path: path) })
            }
            thread.start()
        }
    }

    static func fetchBlocking(host: String, port: Int, path: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(reason: "socket: \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(reason: "connect: \(errno)") }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            response.append(contentsOf: chunk[0..<count])
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw Failure(reason: "no HTTP header in \(text.prefix(200))") }
        guard text.hasPrefix("HTTP/1.1 200") else { throw Failure(reason: "status \(text.prefix(40))") }
        let body = String(text[split.upperBound...])
        if text[..<split.lowerBound].lowercased().contains("transfer-encoding: chunked") { return dechunk(body) }
        return body
    }

    static func dechunk(_ body: String) -> String {
        var output = ""
        var rest = Substring(body)
        while let lineEnd = rest.range(of: "\r\n") {
            guard let size = Int(rest[..<lineEnd.lowerBound], radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            let utf8 = rest.utf8
            guard let end = utf8.index(start, offsetBy: size, limitedBy: utf8.endIndex) else { break }
            output += String(rest[start..<end])
            rest = rest[end...].dropFirst(2)
        }
        return output
    }
}
