import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection to 127.0.0.1 (or ::1) carrying datagrams with RFC 4571 framing, as an ICE-TCP client
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

    init(port: Int, _ loopback: LoopbackAddress = .ipv4) throws {
        let descriptor = socket(loopback.family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketFailed(errno: errno) }
        let connected = loopback.withSocketAddress(port: port) { Glibc.connect(descriptor, $0, $1) }
        guard connected == 0 else {
            let error = errno
            Glibc.close(descriptor)
            throw SocketFailed(errno: error)
        }
        fd = descriptor
        localPort = LoopbackAddress.localPort(of: descriptor)
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
