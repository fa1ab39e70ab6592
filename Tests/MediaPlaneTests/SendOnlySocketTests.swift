import CSocketShims
import Foundation
import Testing

@testable import MediaPlane

/// A media socket's send-only twin shares its port: everything that arrives reaches the socket
/// the relay reads, what the twin sends carries the port, and the port stays the relay's alone.
/// The relay forwards the same with twins and without them (`media.sendOnlySockets: false`).
@Suite struct SendOnlySocketTests {
    static let loopback: UInt32 = 0x7F00_0001

    /// Reads one datagram waiting on `fd` with the port it came from; nil when none waits.
    static func receive(on fd: Int32) -> (bytes: [UInt8], port: UInt16)? {
        var buffer = [UInt8](repeating: 0, count: 2048)
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let got = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, &length)
                }
            }
        }
        guard got >= 0 else { return nil }
        return (Array(buffer[0..<got]), UInt16(bigEndian: address.sin_port))
    }

    /// Whether a socket asking for SO_REUSEPORT may bind `port`: only a port that has a
    /// send-only twin (a reuseport group of this user) lets it, and the group then gives it
    /// nothing. The probe socket is closed at once.
    static func portTakesAReusePortSocket(_ port: UInt16) -> Bool {
        let probe = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { _ = pkr_close(probe) }
        var on: Int32 = 1
        _ = setsockopt(probe, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = loopback.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    @Test func theKernelSteersAPortToTheSocketThatReadsIt() {
        #expect(pkr_udp_send_twin_supported() == 1)
    }

    @Test func aTwinSendsFromThePortAndReceivesNothing() throws {
        let fd = pkr_udp_open(Self.loopback, 0, 1 << 20, 0)
        try #require(fd >= 0)
        let port = UInt16(pkr_udp_local_port(fd))
        let twin = pkr_udp_open_send_twin(fd, 0)
        try #require(twin >= 0)
        #expect(pkr_udp_local_port(twin) == Int32(port))

        // Datagrams from many source ports (the group's program must not spread them by hash).
        var senders: [Int32] = []
        defer { for sender in senders { _ = pkr_close(sender) } }
        for index in 0..<64 {
            let sender = pkr_udp_open(Self.loopback, 0, 0, 0)
            try #require(sender >= 0)
            senders.append(sender)
            #expect(pkr_udp_send(sender, [UInt8(index)], 1, Self.loopback, port) == 1)
        }
        usleep(20_000)
        var arrived: [UInt8] = []
        while let datagram = Self.receive(on: fd) { arrived += datagram.bytes }
        #expect(arrived == (0..<64).map { UInt8($0) })
        #expect(Self.receive(on: twin) == nil)

        // What the twin sends comes from the port.
        #expect(pkr_udp_send(twin, [UInt8]([7, 7]), 2, Self.loopback, UInt16(pkr_udp_local_port(senders[0]))) == 2)
        usleep(5_000)
        let reply = Self.receive(on: senders[0])
        #expect(reply?.bytes == [7, 7])
        #expect(reply?.port == port)

        // Nobody else may bind the port while the pair holds it; once both close, it is free.
        #expect(pkr_udp_open(Self.loopback, port, 0, 0) == -98)
        _ = pkr_close(twin)
        _ = pkr_close(fd)
        let again = pkr_udp_open(Self.loopback, port, 0, 0)
        #expect(again >= 0)
        if again >= 0 { _ = pkr_close(again) }
    }

    /// One publisher, one subscriber, plain RTP: every packet arrives, in order, from the
    /// subscriber transport's port, whether the sockets send through twins or not.
    @Test(arguments: [true, false])
    func packetsArriveInOrderFromTheTransportsPort(sendOnlySockets: Bool) throws {
        var configuration = MediaPlaneConfiguration()
        configuration.threads = 1
        configuration.webRTCPort = 0
        configuration.portRange = sendOnlySockets ? 47_960...47_969 : 47_970...47_979
        configuration.segmentationOffload = .off
        configuration.receiveOffload = .off
        configuration.sendOnlySockets = sendOnlySockets
        let plane = try MediaPlane(configuration: configuration)
        #expect(plane.sendOnlySockets == sendOnlySockets)
        plane.start()
        defer { plane.stop() }

        let sender = pkr_udp_open(Self.loopback, 0, 0, 1 << 20)
        let receiver = pkr_udp_open(Self.loopback, 0, 4 << 20, 0)
        defer { for fd in [sender, receiver] { _ = pkr_close(fd) } }
        let publisher = try plane.openTransport(profile: nil, group: "room").get()
        try plane.connectTransport(
            id: publisher.id, remote: PeerEndpoint(ip: Self.loopback, port: UInt16(pkr_udp_local_port(sender))), clientKey: nil, addressGranted: true
        ).get()
        plane.addSource(MediaSourceSpec(id: 1, transportId: publisher.id, ssrc: 0xAAAA_0001, isVideo: false, codec: "opus", clockRate: 48_000))
        let subscriber = try plane.openTransport(profile: nil, group: "room").get()
        try plane.connectTransport(
            id: subscriber.id, remote: PeerEndpoint(ip: Self.loopback, port: UInt16(pkr_udp_local_port(receiver))), clientKey: nil, addressGranted: true
        ).get()
        // Each transport's port has its twin exactly when the setting is on.
        #expect(Self.portTakesAReusePortSocket(UInt16(subscriber.port)) == sendOnlySockets)
        #expect(Self.portTakesAReusePortSocket(UInt16(publisher.port)) == sendOnlySockets)
        plane.addSink(MediaSinkSpec(id: 2, transportId: subscriber.id, outputSSRC: 0xBBBB_0002, isVideo: false, clockRate: 48_000))
        plane.bind(sink: 2, source: 1)

        func send(_ number: Int) {
            let packet = ScriptedPacket.rtp(
                ssrc: 0xAAAA_0001, sequenceNumber: UInt16(number), timestamp: UInt32(number) * 960, payloadType: 111,
                payload: [UInt8](repeating: UInt8(truncatingIfNeeded: number), count: 160))
            _ = packet.withUnsafeBytes { pkr_udp_send(sender, $0.baseAddress!, UInt32($0.count), Self.loopback, UInt16(publisher.port)) }
        }
        // The commands apply on the data-plane thread; the first packet through shows they have.
        var first: (bytes: [UInt8], port: UInt16)?
        for attempt in 0..<200 where first == nil {
            send(attempt)
            usleep(5_000)
            first = Self.receive(on: receiver)
        }
        try #require(first != nil)
        while Self.receive(on: receiver) != nil {}

        var payloads: [UInt8] = []
        var ports: Set<UInt16> = []
        for number in 1_000..<1_300 {
            send(number)
            if number % 16 == 0 { usleep(1_000) }
        }
        usleep(50_000)
        while let datagram = Self.receive(on: receiver) {
            ports.insert(datagram.port)
            payloads.append(datagram.bytes.count > 12 ? datagram.bytes[12] : 0)
        }
        #expect(payloads == (1_000..<1_300).map { UInt8(truncatingIfNeeded: $0) })
        #expect(ports == [UInt16(subscriber.port)])
    }
}
