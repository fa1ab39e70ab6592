import CSocketShims
import Foundation
import RTPWire
import Testing

@testable import MediaPlane

/// The data-plane thread sends plain subscribers' payloads from its receive batch, so it must
/// send what it queued before it reads the next socket into that batch. Two publishers blast at
/// once into one subscriber's two tracks, so that both sockets are often ready in the same turn;
/// every datagram that arrives must still be one packet, whole.
@Suite struct MediaShellReceiveBatchTests {
    /// A payload that names its publisher and number and fills the rest from both, so that a
    /// datagram with another packet's bytes in it cannot pass.
    static func payload(publisher: UInt8, number: UInt16, size: Int) -> [UInt8] {
        var bytes = [publisher, UInt8(number >> 8), UInt8(truncatingIfNeeded: number)]
        while bytes.count < size { bytes.append(UInt8(truncatingIfNeeded: Int(publisher) &* 97 &+ Int(number) &* 13 &+ bytes.count)) }
        return bytes
    }

    static func isWhole(_ payload: ArraySlice<UInt8>) -> Bool {
        guard payload.count >= 3 else { return false }
        let start = payload.startIndex
        let number = UInt16(payload[start + 1]) << 8 | UInt16(payload[start + 2])
        return Array(payload) == Self.payload(publisher: payload[start], number: number, size: payload.count)
    }

    /// The datagrams waiting on `fd` now.
    static func available(on fd: Int32) -> [[UInt8]] {
        var datagrams: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard got > 0 else { return datagrams }
            datagrams.append(Array(buffer[0..<got]))
        }
    }

    @Test func twoPublishersReadInOneTurnStillSendWholePackets() throws {
        var configuration = MediaPlaneConfiguration()
        configuration.threads = 1
        configuration.webRTCPort = nil
        configuration.portRange = 47_940...47_949
        configuration.receiveBufferBytes = 4 << 20
        configuration.sendBufferBytes = 4 << 20
        configuration.segmentationOffload = .off
        configuration.receiveOffload = .off
        let plane = try MediaPlane(configuration: configuration)
        plane.start()
        defer { plane.stop() }

        let senders = [pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20), pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)]
        let receiver = try SegmentedSendTests.Receiver()
        defer { for fd in senders + [receiver.fd] { _ = pkr_close(fd) } }
        var publisherPorts: [Int] = []
        for (index, sender) in senders.enumerated() {
            let opened = try plane.openTransport(profile: nil, group: "room").get()
            publisherPorts.append(opened.port)
            try plane.connectTransport(
                id: opened.id, remote: PeerEndpoint(ip: 0x7F00_0001, port: UInt16(pkr_udp_local_port(sender))), clientKey: nil, addressGranted: true
            ).get()
            plane.addSource(
                MediaSourceSpec(
                    id: UInt32(10 + index), transportId: opened.id, ssrc: 0xAAAA_0000 + UInt32(index), isVideo: false, codec: "opus", clockRate: 48_000))
        }
        let subscriber = try plane.openTransport(profile: nil, group: "room").get()
        try plane.connectTransport(id: subscriber.id, remote: PeerEndpoint(ip: 0x7F00_0001, port: receiver.port), clientKey: nil, addressGranted: true).get()
        for index in 0..<2 {
            plane.addSink(
                MediaSinkSpec(id: UInt32(20 + index), transportId: subscriber.id, outputSSRC: 0xBBBB_0000 + UInt32(index), isVideo: false, clockRate: 48_000))
            plane.bind(sink: UInt32(20 + index), source: UInt32(10 + index))
        }
        // The commands apply on the data-plane thread: a first packet from each publisher shows
        // when they have.
        var arrived: [[UInt8]] = []
        for attempt in 0..<200 where arrived.count < 2 {
            for (index, sender) in senders.enumerated() {
                let packet = ScriptedPacket.rtp(
                    ssrc: 0xAAAA_0000 + UInt32(index), sequenceNumber: UInt16(attempt), timestamp: 0, payloadType: 111,
                    payload: Self.payload(publisher: UInt8(index), number: UInt16(attempt), size: 600))
                _ = packet.withUnsafeBytes { pkr_udp_send(sender, $0.baseAddress!, UInt32($0.count), 0x7F00_0001, UInt16(publisherPorts[index])) }
            }
            usleep(5_000)
            arrived += Self.available(on: receiver.fd)
        }
        #expect(arrived.count >= 2)

        // Bursts from both at once, sizes varying so that a stale tail would also show as a
        // wrong length for its numbers.
        let perPublisher = 3_000
        var datagrams: [[UInt8]] = []
        for number in 0..<perPublisher {
            if number % 64 == 0 { datagrams += Self.available(on: receiver.fd) }
            for (index, sender) in senders.enumerated() {
                let size = 300 + (number &* 37 &+ index &* 11) % 900
                let packet = ScriptedPacket.rtp(
                    ssrc: 0xAAAA_0000 + UInt32(index), sequenceNumber: UInt16(1_000 + number), timestamp: UInt32(number) * 960,
                    payloadType: 111, payload: Self.payload(publisher: UInt8(index), number: UInt16(1_000 + number), size: size))
                _ = packet.withUnsafeBytes { pkr_udp_send(sender, $0.baseAddress!, UInt32($0.count), 0x7F00_0001, UInt16(publisherPorts[index])) }
            }
        }
        usleep(50_000)
        datagrams += Self.available(on: receiver.fd)
        // Loss under a blast is allowed; a datagram made of two packets is not.
        #expect(datagrams.count >= perPublisher / 2)
        let broken = datagrams.filter { datagram in
            guard let header = ScriptedPacket.header(of: datagram) else { return true }
            return !Self.isWhole(datagram[12...]) || UInt32(datagram[12]) != header.ssrc - 0xBBBB_0000
        }
        #expect(broken.count == 0, "of \(datagrams.count) datagrams")
    }
}
