import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A UDP socket on 127.0.0.1 for a test's ICE checks and DTLS records.
///
/// Its waits sleep rather than block: the tests run on Swift's cooperative pool, one thread per
/// core, beside relays whose control plane (DTLS among it) runs on the same pool; a test that
/// blocked its thread in `poll` would starve the relay it waits for, and with two such tests on
/// two cores nothing moves until their deadlines pass.
final class UDPTestSocket {
    let fd: Int32
    let localPort: UInt16

    struct SocketFailed: Error {}

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketFailed() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0 else {
            Glibc.close(descriptor)
            throw SocketFailed()
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        fd = descriptor
        localPort = UInt16(bigEndian: address.sin_port)
    }

    /// Sends `request` to 127.0.0.1:`port` and waits up to `timeoutMs` for one datagram.
    func exchange(_ request: [UInt8], port: Int, timeoutMs: Int = 2000) async -> [UInt8]? {
        guard send(request, port: port) else { return nil }
        return await receive(timeoutMs: timeoutMs)
    }

    /// Sends one datagram to 127.0.0.1:`port`.
    func send(_ datagram: [UInt8], port: Int) -> Bool {
        var destination = sockaddr_in()
        destination.sin_family = sa_family_t(AF_INET)
        destination.sin_port = in_port_t(UInt16(port).bigEndian)
        destination.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let sent = datagram.withUnsafeBytes { bytes in
            withUnsafePointer(to: &destination) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return sent == datagram.count
    }

    /// From now on takes datagrams from 127.0.0.1:`port` only (a connected socket), as a client
    /// that talks to one candidate sees them: whatever comes from another port is not read.
    func acceptOnly(fromPort port: Int) -> Bool {
        var peer = sockaddr_in()
        peer.sin_family = sa_family_t(AF_INET)
        peer.sin_port = in_port_t(UInt16(port).bigEndian)
        peer.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
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
