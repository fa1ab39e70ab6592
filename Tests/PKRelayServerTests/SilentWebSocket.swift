import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A control-channel WebSocket opened by hand over a blocking socket: it sends masked text
/// frames and reads nothing after the upgrade unless asked for the close frame, like a client
/// that has stopped reading (or will not answer the relay's close frame).
struct SilentWebSocket {
    struct Failure: Error { var reason: String }

    let descriptor: Int32

    /// Connects and upgrades; `receiveBufferBytes` shrinks the socket's receive buffer first so
    /// that the kernel holds little of what the relay sends.
    static func open(port: Int, receiveBufferBytes: Int32? = nil) throws -> SilentWebSocket {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(reason: "socket: errno \(errno)") }
        if var size = receiveBufferBytes {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw Failure(reason: "connect: errno \(errno)")
        }
        let request =
            "GET /rtc HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
                + "dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        // The 101 answer, up to its blank line, a byte at a time so no frame after it is taken.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while !answer.reversed().starts(with: Array("\n\r\n\r".utf8)), recv(fd, &byte, 1, 0) == 1 { answer.append(byte) }
        guard String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            Glibc.close(fd)
            throw Failure(reason: "no upgrade: \(String(decoding: answer, as: UTF8.self))")
        }
        return SilentWebSocket(descriptor: fd)
    }

    /// ``open(port:receiveBufferBytes:)`` on a thread of its own, so that waiting for the
    /// upgrade never blocks the cooperative pool the relay under test answers it from.
    static func connect(port: Int, receiveBufferBytes: Int32? = nil) async throws -> SilentWebSocket {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try open(port: port, receiveBufferBytes: receiveBufferBytes) }) }.start()
        }
    }

    /// Sends one masked text frame; false once the relay has closed the connection (or the
    /// send timed out because it stopped reading).
    @discardableResult
    func sendText(_ text: String) -> Bool {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        // A client must mask its frames; a zero masking key leaves the payload as it is, which
        // keeps this loop cheap in debug builds.
        frame += [0, 0, 0, 0]
        frame += payload
        var sent = 0
        while sent < frame.count {
            let written = frame[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            sent += written
        }
        return true
    }

    /// Reads frames until the relay's close frame (skipping anything before it) and returns its
    /// code and reason; nil when the connection ends without one or nothing comes within the
    /// socket's 10 s timeout.
    func readCloseFrame() -> (code: Int, reason: String)? {
        func read(_ count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            var filled = 0
            while filled < count {
                let got = bytes[filled...].withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard got > 0 else { return nil }
                filled += got
            }
            return bytes
        }
        while let head = read(2) {
            var length = Int(head[1] & 0x7F)
            if length == 126 {
                guard let extended = read(2) else { return nil }
                length = Int(extended[0]) << 8 | Int(extended[1])
            } else if length == 127 {
                guard let extended = read(8) else { return nil }
                length = extended.reduce(0) { $0 << 8 | Int($1) }
            }
            // Frames from a server are not masked.
            guard let payload = read(length) else { return nil }
            if head[0] & 0x0F == 0x8 {
                guard payload.count >= 2 else { return (1005, "") }
                return (Int(payload[0]) << 8 | Int(payload[1]), String(decoding: payload.dropFirst(2), as: UTF8.self))
            }
        }
        return nil
    }

    /// ``readCloseFrame()`` on a thread of its own: blocking in the cooperative pool could starve
    /// the relay under test, which runs there too.
    func closeFrame() async -> (code: Int, reason: String)? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: readCloseFrame()) }.start()
        }
    }

    func close() { _ = Glibc.close(descriptor) }
}
