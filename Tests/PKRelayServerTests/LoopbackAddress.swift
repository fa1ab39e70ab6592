#if canImport(Glibc)
    import Glibc
#endif

/// 127.0.0.1 or ::1 with a port, as a socket address for the test sockets' system calls.
enum LoopbackAddress {
    case ipv4
    case ipv6

    var family: Int32 { self == .ipv4 ? AF_INET : AF_INET6 }

    /// Calls `body` with the loopback address and `port` as a `sockaddr` and its length.
    func withSocketAddress<Result>(port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var storage = sockaddr_storage()
        let length: socklen_t
        switch self {
        case .ipv4:
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    $0.pointee.sin_family = sa_family_t(AF_INET)
                    $0.pointee.sin_port = in_port_t(UInt16(port).bigEndian)
                    $0.pointee.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
                }
            }
        case .ipv6:
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_family = sa_family_t(AF_INET6)
                    $0.pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
                    $0.pointee.sin6_addr = in6addr_loopback
                }
            }
        }
        return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }

    /// The port a socket is bound to (the port sits at the same place in both families).
    static func localPort(of fd: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) } }
    }
}
