import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 client over a blocking socket with timeouts, for the admin API and
/// health endpoints: any method, headers and body; returns the status, headers and body.
enum AdminHTTPClient {
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: String

        /// The body parsed as a JSON object (or nil).
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] }
    }

    struct Failure: Error { var reason: String }

    static func send(
        port: Int, method: String, path: String, token: String? = nil, headers: [String: String] = [:], body: String? = nil
    ) async throws -> Reply {
        // A thread of its own: blocking in the cooperative pool could starve the relay's handlers.
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try sendBlocking(port: port, method: method, path: path, token: token, headers: headers, body: body) })
            }.start()
        }
    }

    /// GETs a plain-text admin page (/metrics, /healthz, /readyz); throws unless 200.
    static func text(port: Int, path: String) async throws -> String {
        let reply = try await send(port: port, method: "GET", path: path)
        guard reply.status == 200 else { throw Failure(reason: "\(path) answered \(reply.status)") }
        return reply.body
    }

    /// The value of one series in /metrics, e.g. `pkrelay_webhook_dropped_total{reason="queue_full"}`.
    static func metric(port: Int, _ series: String) async throws -> UInt64 {
        let text = try await text(port: port, path: "/metrics")
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            if let value = sampleValue(line.dropFirst(series.count + 1)) { return value }
        }
        throw Failure(reason: "no series \(series) in /metrics")
    }

    /// A sample's value as a whole number: counters print as integers, gauges as floats (`1.0`).
    static func sampleValue(_ text: Substring) -> UInt64? {
        if let whole = UInt64(text) { return whole }
        guard let value = Double(text), value >= 0, value < 1.8e19, value == value.rounded() else { return nil }
        return UInt64(value)
    }

    /// Polls a /metrics series until `condition` holds.
    @discardableResult
    static func waitForMetric(port: Int, _ series: String, timeout: Duration = .seconds(8), until condition: (UInt64) -> Bool) async throws -> UInt64 {
        let deadline = ContinuousClock.now + timeout
        while true {
            let value = try await metric(port: port, series)
            if condition(value) { return value }
            guard ContinuousClock.now < deadline else { throw Failure(reason: "timed out waiting for \(series) (last \(value))") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    static func sendBlocking(port: Int, method: String, path: String, token: String?, headers: [String: String], body: String?) throws -> Reply {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(reason: "socket: \(errno)") }
        defer { close(fd) }
        // Generous: on a loaded machine the relay may take seconds to answer; a hang still ends.
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(reason: "connect: \(errno)") }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let payload = Array((body ?? "").utf8)
        if body != nil || method == "POST" { head += "Content-Length: \(payload.count)\r\n" }
        if body != nil && headers["Content-Type"] == nil { head += "Content-Type: application/json\r\n" }
        let request = Array((head + "\r\n").utf8) + payload
        _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            response.append(contentsOf: chunk[0..<count])
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw Failure(reason: "no HTTP header in \(text.prefix(200))") }
        let lines = text[..<split.lowerBound].split(separator: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
            throw Failure(reason: "bad status line in \(text.prefix(80))")
        }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            // A field sent more than once reads as its values joined by commas (RFC 9110 section 5.3).
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        var content = String(text[split.upperBound...])
        if fields["transfer-encoding"]?.lowercased() == "chunked" { content = dechunk(content) }
        return Reply(status: status, headers: fields, body: content)
    }
}
