import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection to 127.0.0.1 carrying datagrams with RFC 4571 framing, as an ICE-TCP client
/// (an active candidate) talks to the relay's passive one.
///
/// Like ``UDPTestSocket`` its waits sleep rather than block the cooperative pool the relay runs on.
final class TCPTestSocket {
    let fd: Int32
    let localPort: UInt16
    private var received: [UInt8] = []
    /// Whether the relay closed the connection (a read returned end of stream).
    private(set) var closedByPeer = false

    struct SocketFailed: Error { var errno: Int32 }

    init(port: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketFailed(errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            Glibc.close(descriptor)
            throw SocketFailed(errno: error)
        }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        fd = descriptor
        localPort = UInt16(bigEndian: local.sin_port)
    }

    /// Writes raw bytes (a test may frame them wrongly on purpose).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Sends one datagram, framed.
    @discardableResult
    func send(_ datagram: [UInt8]) -> Bool {
        write([UInt8(datagram.count >> 8), UInt8(datagram.count & 0xFF)] + datagram)
    }

    /// Sends `request` and waits up to `timeoutMs` for one framed datagram.
    func exchange(_ request: [UInt8], timeoutMs: Int = 2000) async -> [UInt8]? {
        guard send(request) else { return nil }
        return await receive(timeoutMs: timeoutMs)
    }

    /// The next framed datagram, or nil after `timeoutMs` or once the relay closed the connection.
    func receive(timeoutMs: Int) async -> [UInt8]? {
        let deadline = ContinuousClock.now + .milliseconds(timeoutMs)
        while true {
            if received.count >= 2 {
                let length = Int(received[0]) << 8 | Int(received[1])
                if received.count >= 2 + length {
                    let frame = Array(received[2..<2 + length])
                    received.removeFirst(2 + length)
                    return frame
                }
            }
            if closedByPeer { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 0) == 1 {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if got > 0 {
                    received += buffer[..<got]
                } else if got == 0 || (errno != EAGAIN && errno != EINTR) {
                    closedByPeer = true
                }
                continue
            }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Waits up to `timeoutMs` for the relay to close the connection; whether it did.
    func waitForClose(timeoutMs: Int) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(timeoutMs)
        while !closedByPeer, ContinuousClock.now < deadline {
            _ = await receive(timeoutMs: 20)
        }
        return closedByPeer
    }

    func close() { Glibc.close(fd) }
}
