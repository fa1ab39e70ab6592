#if canImport(Glibc)
    import Glibc
#endif

/// The few socket calls the impairment relay makes, on IPv4 UDP, non-blocking.
enum ImpairmentSocket {
    /// An address from dotted IPv4 text and a port.
    static func address(_ host: String, port: UInt16) -> sockaddr_in? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        return address
    }

    /// `ip:port` of an address.
    static func describe(_ address: sockaddr_in) -> String {
        let ip = UInt32(bigEndian: address.sin_addr.s_addr)
        return "\(ip >> 24).\((ip >> 16) & 0xFF).\((ip >> 8) & 0xFF).\(ip & 0xFF):\(UInt16(bigEndian: address.sin_port))"
    }

    /// A key for an address: the IPv4 address and the port.
    static func key(_ address: sockaddr_in) -> UInt64 {
        UInt64(UInt32(bigEndian: address.sin_addr.s_addr)) << 16 | UInt64(UInt16(bigEndian: address.sin_port))
    }

    /// A non-blocking UDP socket bound to `address`, and connected to `peer` when given.
    static func open(bindingTo address: sockaddr_in, connectingTo peer: sockaddr_in? = nil) throws(ImpairmentRelayError) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket(errno: errno) }
        // Media bursts (a keyframe) must not be lost in the relay's own socket buffers.
        var size: Int32 = 4 << 20
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var bound = address
        let bindResult = withUnsafePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bindResult == 0 else {
            let error = errno
            close(fd)
            throw .bind(address: describe(address), errno: error)
        }
        if var peer {
            let connected = withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                let error = errno
                close(fd)
                throw .socket(errno: error)
            }
        }
        return fd
    }

    /// The address a socket is bound to.
    static func localAddress(of fd: Int32) -> sockaddr_in {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return address
    }

    /// Receives one datagram into `buffer` without blocking: its length and sender, or nil
    /// when none waits.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> (length: Int, from: sockaddr_in)? {
        var from = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let received = withUnsafeMutablePointer(to: &from) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, buffer.baseAddress, buffer.count, 0, $0, &length) }
        }
        guard received >= 0 else { return nil }
        return (received, from)
    }

    /// Sends a datagram to `peer`, or on the socket's connected peer when nil; a full buffer
    /// loses it, as a real link would.
    static func send(_ fd: Int32, _ datagram: [UInt8], to peer: sockaddr_in? = nil) {
        datagram.withUnsafeBytes { bytes in
            if var peer {
                _ = withUnsafePointer(to: &peer) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(fd, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            } else {
                _ = Glibc.send(fd, bytes.baseAddress, bytes.count, 0)
            }
        }
    }

    /// The monotonic clock in microseconds.
    static func nowUs() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }
}
