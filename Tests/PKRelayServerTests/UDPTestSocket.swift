import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A UDP socket on 127.0.0.1 (or ::1) for a test's ICE checks and DTLS records.
///
/// Its waits sleep rather than block: the tests run on Swift's cooperative pool, one thread per
/// core, beside relays whose control plane (DTLS among it) runs on the same pool; a test that
/// blocked its thread in `poll` would starve the relay it waits for, and with two such tests on
/// two cores nothing moves until their deadlines pass.
final class UDPTestSocket {
    let fd: Int32
    let localPort: UInt16
    /// 127.0.0.1 or ::1: where the socket is bound, and where it sends.
    let loopback: LoopbackAddress

    struct SocketFailed: Error {}

    init(_ loopback: LoopbackAddress = .ipv4) throws {
        self.loopback = loopback
        let descriptor = socket(loopback.family, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketFailed() }
        let bound = loopback.withSocketAddress(port: 0) { bind(descriptor, $0, $1) }
        guard bound == 0 else {
            Glibc.close(descriptor)
            throw SocketFailed()
        }
        fd = descriptor
        localPort = LoopbackAddress.localPort(of: descriptor)
    }

    /// Sends `request` to the loopback address at `port` and waits up to `timeoutMs` for one datagram.
    func exchange(_ request: [UInt8], port: Int, timeoutMs: Int = 2000) async -> [UInt8]? {
        guard send(request, port: port) else { return nil }
        return await receive(timeoutMs: timeoutMs)
    }

    /// Sends one datagram to the loopback address at `port`.
    func send(_ datagram: [UInt8], port: Int) -> Bool {
        let sent = datagram.withUnsafeBytes { bytes in
            loopback.withSocketAddress(port: port) { sendto(fd, bytes.baseAddress, bytes.count, 0, $0, $1) }
        }
        return sent == datagram.count
    }

    /// From now on takes datagrams from the loopback address at `port` only (a connected
    /// socket), as a client that talks to one candidate sees them: whatever comes from another
    /// port is not read.
    func acceptOnly(fromPort port: Int) -> Bool {
        loopback.withSocketAddress(port: port) { Glibc.connect(fd, $0, $1) } == 0
    }

    /// The next datagram, or nil after `timeoutMs`.
    func receive(timeoutMs: Int) async -> [UInt8]? {
        let deadline = ContinuousClock.now + .milliseconds(timeoutMs)
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 0) == 1 {
                var buffer = [UInt8](repeating: 0, count: 2048)
                let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                return received > 0 ? Array(buffer[..<received]) : nil
            }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    func close() { Glibc.close(fd) }
}
