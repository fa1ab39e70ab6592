import Glibc

/// A UDP socket on 127.0.0.1 for carrying an endpoint's datagrams to a peer process.
final class DTLSUDPSocket {
    /// Why the socket could not be set up.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    /// The socket's file descriptor, owned by this object.
    private let descriptor: Int32
    /// The local port the system picked.
    let port: UInt16

    /// Opens a socket bound to an ephemeral port on 127.0.0.1.
    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw SetupError(description: "socket: errno \(errno)") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            close(descriptor)
            throw SetupError(description: "bind: errno \(errno)")
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: local.sin_port)
    }

    deinit {
        close(descriptor)
    }

    /// Sends one datagram to 127.0.0.1:`port`.
    func send(_ datagram: [UInt8], to port: UInt16) {
        var address = Self.loopback(port: port)
        _ = datagram.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// Waits up to `milliseconds` for a datagram; returns it with the sender's port.
    func receive(waitingAtMost milliseconds: Int32) -> (datagram: [UInt8], port: UInt16)? {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, milliseconds) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var sender = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let received = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &sender) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(descriptor, bytes.baseAddress, bytes.count, 0, $0, &length)
                }
            }
        }
        guard received >= 0 else { return nil }
        return (Array(buffer.prefix(received)), UInt16(bigEndian: sender.sin_port))
    }

    /// 127.0.0.1:`port` as a socket address.
    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
