import CSocketShims
import Foundation
import Testing

@testable import MediaPlane

#if canImport(Glibc)
    import Glibc
#endif

/// The rules an ICE-TCP connection lives by on a shard (`StreamConnections`), on real TCP
/// sockets with the time scripted: the limit, connections nobody routes to, silent ones, and
/// frames read and written through the connection's endpoint.
@Suite("ICE-TCP connections on a shard")
struct StreamConnectionsTests {
    /// A listening socket on 127.0.0.1 and the table around it; its port.
    static func table(limit: Int, perAddress: Int = 1000) throws -> (StreamConnections, UInt16, Int32) {
        let listener = pkr_tcp_listen(0x7F00_0001, 0, 16)
        try #require(listener >= 0)
        let epoll = pkr_epoll_create()
        try #require(epoll >= 0)
        return (
            StreamConnections(listenFD: listener, epollFD: epoll, limit: limit, limitPerAddress: perAddress), UInt16(pkr_udp_local_port(listener)),
            epoll
        )
    }

    @Test func oneAddressHoldsAtMostItsShareAndGetsItBackAsItsConnectionsClose() throws {
        let (table, port, epoll) = try Self.table(limit: 8, perAddress: 2)
        defer {
            table.closeAll()
            close(epoll)
        }
        let clients = try (0..<3).map { _ in try Self.connect(port) }
        defer { for fd in clients { close(fd) } }
        #expect(Self.accept(table, count: 3, nowMs: 0) == (2, 1), "the third from 127.0.0.1 is refused")
        #expect(table.openCount == 2)
        table.close(slot: 0)
        let again = try Self.connect(port)
        defer { close(again) }
        #expect(Self.accept(table, count: 1, nowMs: 0) == (1, 0), "a closed connection frees its address's share")
    }

    /// A client connected to `port` (blocking, so the connection is in the backlog on return).
    static func connect(_ port: UInt16) throws -> Int32 {
        let (fd, error) = attemptConnection(port)
        try #require(fd >= 0, "connect: errno \(error)")
        return fd
    }

    /// A client's connection to 127.0.0.1:`port`: its fd, or -1 and the errno connect gave.
    static func attemptConnection(_ port: UInt16) -> (fd: Int32, errno: Int32) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            return (-1, error)
        }
        return (fd, 0)
    }

    /// Whether the relay closed `fd`'s connection (a read sees the end of the stream).
    static func isClosed(_ fd: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 1000) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    /// Accepts until `count` connections were taken or refused (the backlog fills asynchronously).
    static func accept(_ table: StreamConnections, count: Int, nowMs: Int64) -> (accepted: Int, refused: Int) {
        var total = (accepted: 0, refused: 0)
        for _ in 0..<200 where total.accepted + total.refused < count {
            let round = table.acceptWaiting(nowMs: nowMs)
            total.accepted += round.accepted
            total.refused += round.refused
            if round.accepted + round.refused == 0 { usleep(2000) }
        }
        return total
    }

    @Test func pastTheLimitAConnectionIsClosedAtOnceAndTheNextSlotIsReused() throws {
        let (table, port, epoll) = try Self.table(limit: 1)
        defer {
            table.closeAll()
            close(epoll)
        }
        let first = try Self.connect(port)
        defer { close(first) }
        #expect(Self.accept(table, count: 1, nowMs: 0) == (1, 0))
        let second = try Self.connect(port)
        defer { close(second) }
        #expect(Self.accept(table, count: 1, nowMs: 0) == (0, 1))
        #expect(Self.isClosed(second))
        #expect(table.openCount == 1)
        // The first closes; its slot, and so its number, goes to the next.
        let endpoint = try #require(table.slots.compactMap { $0 }.first?.endpoint)
        #expect(endpoint.connection == 1 && endpoint.isStream)
        table.close(slot: 0)
        #expect(table.closedEndpoints == [endpoint])
        let third = try Self.connect(port)
        defer { close(third) }
        #expect(Self.accept(table, count: 1, nowMs: 0) == (1, 0))
        let reused = try #require(table.slots.compactMap { $0 }.first?.endpoint)
        #expect(reused.connection == 1 && reused != endpoint, "same number, another client port")
        #expect(table.connection(for: endpoint) == nil, "the old endpoint names nothing now")
    }

    @Test func aConnectionNobodyRoutesToGoesAfterTenSecondsAndASilentOneAfterThirty() throws {
        let (table, port, epoll) = try Self.table(limit: 8)
        defer {
            table.closeAll()
            close(epoll)
        }
        let stranger = try Self.connect(port)
        let client = try Self.connect(port)
        defer {
            close(stranger)
            close(client)
        }
        #expect(Self.accept(table, count: 2, nowMs: 1_000) == (2, 0))
        let endpoints = table.slots.compactMap { $0?.endpoint }
        let routed = try #require(endpoints.first { $0.port != Self.localPort(of: stranger) })
        table.sweep(nowMs: 10_999) { $0 == routed }
        #expect(table.openCount == 2, "nothing is closed before ten seconds")
        table.sweep(nowMs: 11_000) { $0 == routed }
        #expect(table.openCount == 1 && Self.isClosed(stranger), "no check passed on it for ten seconds")
        // The routed one is closed once it carried nothing for thirty seconds.
        table.sweep(nowMs: 30_999) { $0 == routed }
        #expect(table.openCount == 1)
        table.sweep(nowMs: 31_000) { $0 == routed }
        #expect(table.openCount == 0 && Self.isClosed(client))
        #expect(table.closedEndpoints.count == 2)
    }

    @Test func framesReadReachTheHandlerWithTheConnectionsEndpointAndAnswersGoBackFramed() throws {
        let (table, port, epoll) = try Self.table(limit: 8)
        defer {
            table.closeAll()
            close(epoll)
        }
        // Closed by the test itself below, once.
        let client = try Self.connect(port)
        #expect(Self.accept(table, count: 1, nowMs: 0) == (1, 0))
        let wire: [UInt8] = [0, 3, 1, 2, 3, 0, 1, 9]
        #expect(wire.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) } == wire.count)
        var frames: [[UInt8]] = []
        var from: [PeerEndpoint] = []
        for _ in 0..<100 where frames.count < 2 {
            let (open, oversized) = table.read(slot: 0, nowMs: 5) { buffer, length, endpoint in
                frames.append(Array(UnsafeRawBufferPointer(start: buffer, count: length)))
                from.append(endpoint)
            }
            #expect(open && oversized == 0)
            if frames.count < 2 { usleep(2000) }
        }
        #expect(frames == [[1, 2, 3], [9]])
        let endpoint = try #require(from.first)
        #expect(from == [endpoint, endpoint] && endpoint.port == Self.localPort(of: client) && endpoint.ip == 0x7F00_0001)
        // The answer to that endpoint arrives framed.
        #expect([UInt8]([7, 7]).withUnsafeBytes { table.send($0, to: endpoint) })
        var reply = [UInt8](repeating: 0, count: 16)
        var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        _ = poll(&poller, 1, 1000)
        let got = reply.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
        #expect(Array(reply[..<max(0, got)]) == [0, 2, 7, 7])
        // The peer closes: the read says so.
        close(client)
        var open = true
        for _ in 0..<100 where open {
            open = table.read(slot: 0, nowMs: 6) { _, _, _ in }.open
            if open { usleep(2000) }
        }
        #expect(!open)
    }

    @Test func aConnectionAWriteFindsBrokenIsClosedOnlyWhenNoFrameOfItIsBeingRead() throws {
        let (table, port, epoll) = try Self.table(limit: 8)
        defer {
            table.closeAll()
            close(epoll)
        }
        let client = try Self.connect(port)
        #expect(Self.accept(table, count: 1, nowMs: 0) == (1, 0))
        let endpoint = try #require(table.slots.compactMap { $0 }.first?.endpoint)
        // The client resets the connection (SO_LINGER 0): a later write fails.
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        #expect(setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size)) == 0)
        close(client)
        usleep(20_000)
        for _ in 0..<50 where table.connection(for: endpoint) != nil {
            _ = [UInt8](repeating: 1, count: 100).withUnsafeBytes { table.send($0, to: endpoint) }
            usleep(2000)
        }
        #expect(table.connection(for: endpoint) == nil, "a broken connection takes nothing more")
        #expect(table.openCount == 1 && table.hasFailed && table.closedEndpoints.isEmpty, "not closed from inside the send")
        #expect(table.read(slot: 0, nowMs: 1) { _, _, _ in }.open == false)
        table.closeFailed()
        #expect(table.openCount == 0 && table.closedEndpoints == [endpoint] && !table.hasFailed)
    }

    @Test func aMediaPlaneNeverStartedClosesItsICETCPListener() throws {
        var configuration = MediaPlaneConfiguration()
        configuration.threads = 1
        configuration.webRTCPort = 0
        configuration.portRange = 47_960...47_969
        let plane = try MediaPlane(configuration: configuration)
        #expect(plane.offersICETCP)
        let port = try #require(plane.webRTCPorts.first)
        let before = try Self.connect(UInt16(port))
        close(before)
        plane.stop()
        let after = Self.attemptConnection(UInt16(port))
        if after.fd >= 0 { close(after.fd) }
        #expect(after.fd < 0 && after.errno == ECONNREFUSED, "nothing listens once the plane stopped")
    }

    static func localPort(of fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return UInt16(bigEndian: address.sin_port)
    }
}
