import CSocketShims
import Foundation
import SecureTransport
import Testing

@testable import MediaPlane

/// An SRTP transport whose peer is fixed sends on a connected twin and reads its peer on a
/// connected third socket, while its own socket stays unconnected for authenticated RTCP from a
/// second address (senders that use RTP port + 1): what the relay accepts is what it accepted
/// before, without a route lookup per datagram sent.
@Suite struct ConnectedSRTPSocketTests {
    static let loopback = ConnectedSocketTests.loopback
    static let publisherSSRC: UInt32 = 0xAAAA_0011

    @Test func theKernelGivesAConnectedReaderItsPeerAndEveryoneElseToTheFirstSocket() {
        #expect(pkr_udp_connected_reader_supported() == 1)
    }

    @Test func aConnectedReaderHearsThePeerAndTheFirstSocketEveryoneElse() throws {
        let fd = pkr_udp_open(Self.loopback, 0, 1 << 20, 0)
        try #require(fd >= 0)
        let port = UInt16(pkr_udp_local_port(fd))
        let twin = pkr_udp_open_send_twin(fd, 0)
        let peer = pkr_udp_open(Self.loopback, 0, 1 << 20, 0)
        let other = pkr_udp_open(Self.loopback, 0, 1 << 20, 0)
        defer { for socket in [fd, twin, peer, other] where socket >= 0 { _ = pkr_close(socket) } }
        try #require(twin >= 0 && peer >= 0 && other >= 0)
        let peerPort = UInt16(pkr_udp_local_port(peer))
        let reader = pkr_udp_open_connected_reader(fd, twin, Self.loopback, peerPort, 1 << 20)
        try #require(reader >= 0)
        defer { _ = pkr_close(reader) }
        #expect(ConnectedSocketTests.peerPort(of: reader) == peerPort)
        #expect(ConnectedSocketTests.peerPort(of: twin) == peerPort)
        #expect(ConnectedSocketTests.peerPort(of: fd) == nil)
        for index in 0..<16 {
            #expect(pkr_udp_send(peer, [UInt8(index)], 1, Self.loopback, port) == 1)
            #expect(pkr_udp_send(other, [UInt8(0x80 + index)], 1, Self.loopback, port) == 1)
        }
        usleep(20_000)
        #expect(ConnectedSocketTests.receiveAll(on: reader).map(\.bytes) == (0..<16).map { [UInt8($0)] })
        #expect(ConnectedSocketTests.receiveAll(on: fd).map(\.bytes) == (0..<16).map { [UInt8(0x80 + $0)] })
        #expect(SendOnlySocketTests.receive(on: twin) == nil)
        // A twin needs its own socket: without one there is nothing to connect.
        #expect(pkr_udp_open_connected_reader(fd, fd, Self.loopback, peerPort, 0) < 0)
    }

    /// One shard, an AES-GCM publisher that gives its address and a subscriber the control
    /// plane vouched for.
    final class Setup {
        let plane: MediaPlane
        let sender: Int32
        let receiver: Int32
        let publisher: OpenedTransport
        let subscriber: OpenedTransport
        let publisherClient: SRTPSession
        var sequenceNumber: UInt16 = 0

        init(connectedSockets: Bool, ports: ClosedRange<Int>, publisherLatches: Bool = false) throws {
            var configuration = MediaPlaneConfiguration()
            configuration.threads = 1
            configuration.webRTCPort = nil
            configuration.portRange = ports
            configuration.segmentationOffload = .off
            configuration.receiveOffload = .off
            configuration.connectedSockets = connectedSockets
            plane = try MediaPlane(configuration: configuration)
            plane.start()
            sender = pkr_udp_open(ConnectedSRTPSocketTests.loopback, 0, 0, 1 << 20)
            receiver = pkr_udp_open(ConnectedSRTPSocketTests.loopback, 0, 4 << 20, 0)
            let publisherKey = [UInt8](repeating: 0x21, count: SRTPProfile.aeadAES128GCM.keyingMaterialLength)
            publisherClient = try SRTPSession(profile: .aeadAES128GCM, keyingMaterial: publisherKey, direction: .sender)
            publisher = try plane.openTransport(profile: .aeadAES128GCM, group: "room").get()
            let senderAddress = PeerEndpoint(ip: ConnectedSRTPSocketTests.loopback, port: UInt16(pkr_udp_local_port(sender)))
            try plane.connectTransport(
                id: publisher.id, remote: publisherLatches ? nil : senderAddress, clientKey: publisherKey, addressGranted: !publisherLatches
            ).get()
            plane.addSource(
                MediaSourceSpec(
                    id: 1, transportId: publisher.id, ssrc: ConnectedSRTPSocketTests.publisherSSRC, isVideo: false, codec: "opus", clockRate: 48_000))
            subscriber = try plane.openTransport(profile: .aeadAES128GCM, group: "room").get()
            let subscriberKey = [UInt8](repeating: 0x42, count: SRTPProfile.aeadAES128GCM.keyingMaterialLength)
            try plane.connectTransport(
                id: subscriber.id, remote: PeerEndpoint(ip: ConnectedSRTPSocketTests.loopback, port: UInt16(pkr_udp_local_port(receiver))),
                clientKey: subscriberKey, addressGranted: true
            ).get()
            plane.addSink(MediaSinkSpec(id: 2, transportId: subscriber.id, outputSSRC: 0xBBBB_0012, isVideo: false, clockRate: 48_000))
            plane.bind(sink: 2, source: 1)
        }

        func close() {
            plane.stop()
            for fd in [sender, receiver] where fd >= 0 { _ = pkr_close(fd) }
        }

        /// The next audio packet, sealed with the publisher's key.
        func sealedPacket() -> [UInt8] {
            sequenceNumber &+= 1
            var packet =
                ScriptedPacket.audio(ssrc: ConnectedSRTPSocketTests.publisherSSRC, sequenceNumber: sequenceNumber, timestamp: UInt32(sequenceNumber) * 960)
                + [UInt8](repeating: 0, count: 32)
            var length = packet.count - 32
            let status = packet.withUnsafeMutableBytes { publisherClient.protectRTP($0.baseAddress!, length: &length, capacity: $0.count) }
            precondition(status == .ok)
            return Array(packet[0..<length])
        }

        func send(_ bytes: [UInt8], from fd: Int32? = nil) {
            _ = bytes.withUnsafeBytes {
                pkr_udp_send(fd ?? sender, $0.baseAddress!, UInt32($0.count), ConnectedSRTPSocketTests.loopback, UInt16(publisher.port))
            }
        }

        /// The counters of a report taken after now.
        func countersAfterNow() throws -> DataPlaneCounters {
            let sentByMs = pkr_realtime_ms()
            var report = plane.latestReport()
            for _ in 0..<300 where report.generatedAtMs <= sentByMs {
                usleep(10_000)
                report = plane.latestReport()
            }
            try #require(report.generatedAtMs > sentByMs)
            return report.counters
        }
    }

    @Test(arguments: [true, false])
    func srtpTransportsConnectAndStillHearRTCPFromASecondAddress(connectedSockets: Bool) throws {
        let base = 47_930 + (connectedSockets ? 0 : 4)
        let setup = try Setup(connectedSockets: connectedSockets, ports: base...(base + 1))
        defer { setup.close() }
        var through = false
        for _ in 0..<200 where !through {
            setup.send(setup.sealedPacket())
            usleep(5_000)
            through = SendOnlySocketTests.receive(on: setup.receiver) != nil
        }
        try #require(through)
        usleep(10_000)
        _ = ConnectedSocketTests.receiveAll(on: setup.receiver)

        // The twin and the reader are connected to the peer; the transport's own socket is not.
        let senderPort = UInt16(pkr_udp_local_port(setup.sender))
        let receiverPort = UInt16(pkr_udp_local_port(setup.receiver))
        #expect(try ConnectedSocketTests.connectedPeers(ofLocalPort: setup.publisher.port) == (connectedSockets ? [senderPort, senderPort] : []))
        #expect(try ConnectedSocketTests.connectedPeers(ofLocalPort: setup.subscriber.port) == (connectedSockets ? [receiverPort, receiverPort] : []))

        // Authenticated sender reports from a second address reach the relay; an intruder's
        // packets reach it too and are dropped there, as before.
        let before = try setup.countersAfterNow()
        let second = pkr_udp_open(Self.loopback, 0, 0, 0)
        let intruder = pkr_udp_open(Self.loopback, 0, 0, 0)
        defer { for fd in [second, intruder] { _ = pkr_close(fd) } }
        for index in 0..<300 {
            setup.send(setup.sealedPacket())
            if index % 10 == 0 {
                var report = ScriptedPacket.senderReport(ssrc: Self.publisherSSRC, rtpTimestamp: UInt32(index) * 960) + [UInt8](repeating: 0, count: 64)
                var length = report.count - 64
                #expect(report.withUnsafeMutableBytes { setup.publisherClient.protectRTCP($0.baseAddress!, length: &length, capacity: $0.count) } == .ok)
                setup.send(Array(report[0..<length]), from: second)
                setup.send(setup.sealedPacket(), from: intruder)
            }
            if index % 16 == 0 { usleep(1_000) }
        }
        usleep(50_000)
        let datagrams = ConnectedSocketTests.receiveAll(on: setup.receiver)
        // The publisher's packets, not the intruder's; its sender reports come along as the relay's own.
        #expect(datagrams.filter { $0.bytes.count > 1 && !(192...223).contains($0.bytes[1]) }.count == 300)
        #expect(Set(datagrams.map(\.port)) == [UInt16(setup.subscriber.port)])
        let after = try setup.countersAfterNow()
        #expect(after.rtcpIn - before.rtcpIn == 30)
        #expect(after.drops(.unexpectedSource) - before.drops(.unexpectedSource) == 30)

        // Closing the transports closes every socket on their ports.
        setup.plane.closeTransport(id: setup.publisher.id)
        setup.plane.closeTransport(id: setup.subscriber.id)
        var open = 1
        for _ in 0..<100 where open > 0 {
            usleep(10_000)
            open = try Self.sockets(onLocalPort: setup.publisher.port) + Self.sockets(onLocalPort: setup.subscriber.port)
        }
        #expect(open == 0)
    }

    /// A latching publisher's first burst: the first packet connects the transport while the
    /// rest of the burst is still queued on its own socket, and whatever arrives later goes to the
    /// connected reader. The subscriber still gets every packet, in order.
    @Test func aBurstAcrossTheConnectionArrivesWholeAndInOrder() throws {
        let setup = try Setup(connectedSockets: true, ports: 47_938...47_939, publisherLatches: true)
        defer { setup.close() }
        // The commands (source, sink, bind) apply on the data-plane thread.
        usleep(50_000)
        let burst = (0..<400).map { _ in setup.sealedPacket() }
        for packet in burst { setup.send(packet) }
        var arrived: [UInt16] = []
        for _ in 0..<100 where arrived.count < burst.count {
            usleep(10_000)
            arrived += ConnectedSocketTests.receiveAll(on: setup.receiver).filter { $0.bytes.count > 12 && !(192...223).contains($0.bytes[1]) }.map {
                UInt16($0.bytes[2]) << 8 | UInt16($0.bytes[3])
            }
        }
        #expect(try ConnectedSocketTests.connectedPeers(ofLocalPort: setup.publisher.port).count == 2)
        // The relay numbers the subscriber's packets itself: consecutive, one per publisher packet.
        #expect(arrived.count == burst.count)
        #expect(zip(arrived, arrived.dropFirst()).allSatisfy { $1 == $0 &+ 1 }, "\(arrived)")
        #expect(try setup.countersAfterNow().drops(.srtpReplayed) == 0)
    }

    /// UDP sockets bound to local `port` (any state), from /proc/net/udp.
    static func sockets(onLocalPort port: Int) throws -> Int {
        let table = try String(contentsOfFile: "/proc/net/udp", encoding: .utf8)
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            guard fields.count > 1 else { return false }
            let local = fields[1].split(separator: ":")
            return local.count == 2 && UInt16(local[1], radix: 16) == UInt16(port)
        }.count
    }
}
