import CSocketShims
import Foundation
import Testing

@testable import MediaPlane

/// A plain transport's sockets are connected to its peer once the peer is fixed: the relay reads
/// the peer's datagrams, nobody else's reach it, and what it sends names no destination yet
/// leaves from the transport's port. Without the setting the sockets stay unconnected and the
/// relay forwards the same.
@Suite struct ConnectedSocketTests {
    static let loopback: UInt32 = 0x7F00_0001

    /// The connected UDP sockets on local `port` (from /proc/net/udp): the remote port of each.
    ///
    /// The kernel writes that table a page at a time, so a row can be skipped when other tests
    /// open or close sockets between pages: the table is read until two reads agree.
    static func connectedPeers(ofLocalPort port: Int) throws -> [UInt16] {
        var previous = try connectedPeersOnce(ofLocalPort: port)
        for _ in 0..<8 {
            let current = try connectedPeersOnce(ofLocalPort: port)
            if current == previous { return current }
            previous = current
        }
        return previous
    }

    /// The peer's port of a connected socket, nil when it has none.
    static func peerPort(of fd: Int32) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        return result == 0 ? UInt16(bigEndian: address.sin_port) : nil
    }

    static func connectedPeersOnce(ofLocalPort port: Int) throws -> [UInt16] {
        let table = try String(contentsOfFile: "/proc/net/udp", encoding: .utf8)
        var peers: [UInt16] = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 3 else { continue }
            let local = fields[1].split(separator: ":")
            let remote = fields[2].split(separator: ":")
            guard local.count == 2, remote.count == 2, UInt16(local[1], radix: 16) == UInt16(port) else { continue }
            // State 01 is TCP_ESTABLISHED, which a connected UDP socket reports.
            if fields[3] == "01", let peer = UInt16(remote[1], radix: 16) { peers.append(peer) }
        }
        return peers
    }

    static func receiveAll(on fd: Int32) -> [(bytes: [UInt8], port: UInt16)] {
        var datagrams: [(bytes: [UInt8], port: UInt16)] = []
        while let datagram = SendOnlySocketTests.receive(on: fd) { datagrams.append(datagram) }
        return datagrams
    }

    @Test func theKernelGivesAConnectedPairsPeerToTheReadingSocket() {
        #expect(pkr_udp_connected_twin_supported() == 1)
    }

    @Test func aConnectedPairReadsOnlyItsPeerAndSendsWithoutADestination() throws {
        let fd = pkr_udp_open(Self.loopback, 0, 1 << 20, 0)
        try #require(fd >= 0)
        let port = UInt16(pkr_udp_local_port(fd))
        let twin = pkr_udp_open_send_twin(fd, 0)
        let peer = pkr_udp_open(Self.loopback, 0, 1 << 20, 0)
        let other = pkr_udp_open(Self.loopback, 0, 1 << 20, 0)
        defer { for socket in [fd, twin, peer, other] where socket >= 0 { _ = pkr_close(socket) } }
        try #require(twin >= 0 && peer >= 0 && other >= 0)
        let peerPort = UInt16(pkr_udp_local_port(peer))
        #expect(pkr_udp_connect_peer(fd, twin, Self.loopback, peerPort) == 0)
        #expect(Self.peerPort(of: fd) == peerPort)
        #expect(Self.peerPort(of: twin) == peerPort)

        for index in 0..<16 {
            #expect(pkr_udp_send(peer, [UInt8(index)], 1, Self.loopback, port) == 1)
            _ = pkr_udp_send(other, [0xEE], 1, Self.loopback, port)
        }
        usleep(20_000)
        #expect(Self.receiveAll(on: fd).map(\.bytes) == (0..<16).map { [UInt8($0)] })
        #expect(SendOnlySocketTests.receive(on: twin) == nil)

        // A send batch marked connected names no destination; its datagrams reach the peer from the port.
        let batch = try #require(pkr_batch_create(4, 2048))
        defer { pkr_batch_destroy(batch) }
        let layout = SendBatchLayout(of: batch)
        pkr_batch_send_connected(batch)
        for index in 0..<4 {
            layout.buffer(at: index).storeBytes(of: UInt8(0x40 + index), as: UInt8.self)
            // The destination written here is not the peer: a connected batch must not use it.
            layout.prepare(at: index, length: 1, to: PeerEndpoint(ip: Self.loopback, port: UInt16(pkr_udp_local_port(other))))
        }
        #expect(pkr_batch_send(twin, batch, 4) == 4)
        usleep(10_000)
        let returned = Self.receiveAll(on: peer)
        #expect(returned.map(\.bytes) == [[0x40], [0x41], [0x42], [0x43]])
        #expect(returned.allSatisfy { $0.port == port })
        #expect(Self.receiveAll(on: other).isEmpty)
    }

    @Test func aPairWhoseSocketRefusesIsLeftUnconnected() throws {
        let fd = pkr_udp_open(Self.loopback, 0, 0, 0)
        try #require(fd >= 0)
        let twin = pkr_udp_open_send_twin(fd, 0)
        // A UNIX datagram socket refuses an IPv4 peer, after the twin was connected.
        let refusing = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { for socket in [fd, twin, refusing] where socket >= 0 { _ = pkr_close(socket) } }
        try #require(twin >= 0 && refusing >= 0)
        #expect(pkr_udp_connect_peer(refusing, twin, Self.loopback, 9) < 0)
        #expect(Self.peerPort(of: fd) == nil)
        #expect(Self.peerPort(of: twin) == nil)
    }

    /// A relay on one shard, plain transports, a publisher that either gives its address or latches.
    final class Setup {
        let plane: MediaPlane
        let sender: Int32
        /// -1 once a test closed it.
        var receiver: Int32
        let publisher: OpenedTransport
        let subscriber: OpenedTransport

        init(sendOnlySockets: Bool, connectedSockets: Bool, publisherLatches: Bool, ports: ClosedRange<Int>) throws {
            var configuration = MediaPlaneConfiguration()
            configuration.threads = 1
            configuration.webRTCPort = 0
            configuration.portRange = ports
            configuration.segmentationOffload = .off
            configuration.receiveOffload = .off
            configuration.sendOnlySockets = sendOnlySockets
            configuration.connectedSockets = connectedSockets
            plane = try MediaPlane(configuration: configuration)
            plane.start()
            sender = pkr_udp_open(ConnectedSocketTests.loopback, 0, 0, 1 << 20)
            receiver = pkr_udp_open(ConnectedSocketTests.loopback, 0, 4 << 20, 0)
            publisher = try plane.openTransport(profile: nil, group: "room").get()
            let senderAddress = PeerEndpoint(ip: ConnectedSocketTests.loopback, port: UInt16(pkr_udp_local_port(sender)))
            try plane.connectTransport(id: publisher.id, remote: publisherLatches ? nil : senderAddress, clientKey: nil).get()
            plane.addSource(MediaSourceSpec(id: 1, transportId: publisher.id, ssrc: 0xAAAA_0001, isVideo: false, codec: "opus", clockRate: 48_000))
            subscriber = try plane.openTransport(profile: nil, group: "room").get()
            try plane.connectTransport(
                id: subscriber.id, remote: PeerEndpoint(ip: ConnectedSocketTests.loopback, port: UInt16(pkr_udp_local_port(receiver))), clientKey: nil,
                addressGranted: true
            ).get()
            plane.addSink(MediaSinkSpec(id: 2, transportId: subscriber.id, outputSSRC: 0xBBBB_0002, isVideo: false, clockRate: 48_000))
            plane.bind(sink: 2, source: 1)
        }

        func close() {
            plane.stop()
            for fd in [sender, receiver] where fd >= 0 { _ = pkr_close(fd) }
        }

        static func packet(_ number: Int) -> [UInt8] {
            ScriptedPacket.rtp(
                ssrc: 0xAAAA_0001, sequenceNumber: UInt16(truncatingIfNeeded: number), timestamp: UInt32(number) * 960, payloadType: 111,
                payload: [UInt8](repeating: UInt8(truncatingIfNeeded: number), count: 160))
        }

        func send(_ number: Int, from fd: Int32? = nil) {
            let bytes = Self.packet(number)
            _ = bytes.withUnsafeBytes { pkr_udp_send(fd ?? sender, $0.baseAddress!, UInt32($0.count), ConnectedSocketTests.loopback, UInt16(publisher.port)) }
        }

        /// Sends until the first packet comes through (the commands apply on the data-plane thread), then drains.
        func waitUntilForwarding() throws {
            var through = false
            for attempt in 0..<200 where !through {
                send(attempt)
                usleep(5_000)
                through = SendOnlySocketTests.receive(on: receiver) != nil
            }
            try #require(through)
            usleep(10_000)
            _ = ConnectedSocketTests.receiveAll(on: receiver)
        }
    }

    @Test(arguments: [(true, true, false), (true, true, true), (false, true, false), (true, false, false), (false, false, true)])
    func plainTransportsForwardInOrderAndReadOnlyTheirPeer(sendOnlySockets: Bool, connectedSockets: Bool, publisherLatches: Bool) throws {
        let base = 47_980 + (sendOnlySockets ? 0 : 4) + (connectedSockets ? 0 : 8) + (publisherLatches ? 2 : 0)
        let setup = try Setup(
            sendOnlySockets: sendOnlySockets, connectedSockets: connectedSockets, publisherLatches: publisherLatches, ports: base...(base + 1))
        defer { setup.close() }
        #expect(setup.plane.connectedSockets == connectedSockets)
        try setup.waitUntilForwarding()

        // Both transports' sockets (the reading one and its twin) are connected exactly when the setting is on.
        let senderPort = UInt16(pkr_udp_local_port(setup.sender))
        let receiverPort = UInt16(pkr_udp_local_port(setup.receiver))
        let sockets = sendOnlySockets ? 2 : 1
        #expect(try Self.connectedPeers(ofLocalPort: setup.publisher.port) == (connectedSockets ? Array(repeating: senderPort, count: sockets) : []))
        #expect(try Self.connectedPeers(ofLocalPort: setup.subscriber.port) == (connectedSockets ? Array(repeating: receiverPort, count: sockets) : []))

        // Another sender's packets are never forwarded: the kernel drops them at a connected
        // socket, the relay (as `unexpected_source`) at an unconnected one.
        let intruder = pkr_udp_open(Self.loopback, 0, 0, 0)
        defer { _ = pkr_close(intruder) }
        for number in 1_000..<1_300 {
            setup.send(number)
            if number % 10 == 0 { setup.send(50_000 + number, from: intruder) }
            if number % 16 == 0 { usleep(1_000) }
        }
        usleep(50_000)
        let datagrams = Self.receiveAll(on: setup.receiver)
        #expect(datagrams.map { $0.bytes.count > 12 ? $0.bytes[12] : 0 } == (1_000..<1_300).map { UInt8(truncatingIfNeeded: $0) })
        #expect(Set(datagrams.map(\.port)) == [UInt16(setup.subscriber.port)])
        // The data plane publishes its counters about once a second: wait for a report from after the packets.
        let sentByMs = pkr_realtime_ms()
        var report = setup.plane.latestReport()
        for _ in 0..<300 where report.generatedAtMs <= sentByMs {
            usleep(10_000)
            report = setup.plane.latestReport()
        }
        try #require(report.generatedAtMs > sentByMs)
        #expect(report.counters.drops(.unexpectedSource) == (connectedSockets ? 0 : 30))
    }

    /// ICMP port unreachable reaches a connected socket as an error: the relay reads past it,
    /// and the subscriber gets packets again once its port is back.
    @Test func aSubscriberWhosePortClosesGetsPacketsAgainWhenItReopens() throws {
        let setup = try Setup(sendOnlySockets: true, connectedSockets: true, publisherLatches: false, ports: 47_996...47_997)
        defer { setup.close() }
        try setup.waitUntilForwarding()
        let receiverPort = UInt16(pkr_udp_local_port(setup.receiver))
        _ = pkr_close(setup.receiver)
        setup.receiver = -1
        for number in 2_000..<2_100 {
            setup.send(number)
            if number % 8 == 0 { usleep(1_000) }
        }
        usleep(20_000)
        let reopened = pkr_udp_open(Self.loopback, receiverPort, 4 << 20, 0)
        try #require(reopened >= 0)
        defer { _ = pkr_close(reopened) }
        for number in 3_000..<3_100 {
            setup.send(number)
            if number % 8 == 0 { usleep(1_000) }
        }
        usleep(50_000)
        let payloads = Self.receiveAll(on: reopened).map { $0.bytes.count > 12 ? $0.bytes[12] : 0 }
        // At most the first packet after the port came back is lost, to the error the last refused one left.
        #expect(payloads.count >= 99)
        #expect(payloads.suffix(99) == (3_001..<3_100).map { UInt8(truncatingIfNeeded: $0) })
    }
}
