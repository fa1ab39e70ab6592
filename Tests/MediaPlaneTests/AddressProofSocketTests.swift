import CSocketShims
import Foundation
import RTPWire
import SecureTransport
import Testing

@testable import MediaPlane

/// The address proof on real sockets: a subscriber's transport opened before its session joins
/// a room waits unplaced, and the authenticated report that proves its address waits in the
/// socket with it. When the transport is placed, its socket is registered and it is connected
/// in one go: were the shell to read the socket in between, the one packet that proves the
/// address would be dropped as not connected, and the subscriber would get nothing, ever.
@Suite struct AddressProofSocketTests {
    @Test func aTransportPlacedAfterItsProofArrivedSendsOnceItIsPlaced() throws {
        var configuration = MediaPlaneConfiguration()
        configuration.threads = 1
        configuration.webRTCPort = nil
        configuration.portRange = 47_950...47_959
        configuration.segmentationOffload = .off
        configuration.receiveOffload = .off
        let plane = try MediaPlane(configuration: configuration)
        plane.start()
        defer { plane.stop() }
        let sender = pkr_udp_open(0x7F00_0001, 0, 0, 1 << 20)
        let receiver = try SegmentedSendTests.Receiver()
        defer { for fd in [sender, receiver.fd] { _ = pkr_close(fd) } }

        let publisher = try plane.openTransport(profile: nil, group: "room").get()
        try plane.connectTransport(id: publisher.id, remote: nil, clientKey: nil).get()
        plane.addSource(MediaSourceSpec(id: 10, transportId: publisher.id, ssrc: 0xAAAA_0001, isVideo: false, codec: "opus", clockRate: 48_000))
        // Opened and connected before its room is known; its receiver report arrives meanwhile.
        let subscriber = try plane.openTransport(profile: .aeadAES128GCM).get()
        let clientKey = [UInt8](repeating: 0x33, count: SRTPProfile.aeadAES128GCM.keyingMaterialLength)
        try plane.connectTransport(id: subscriber.id, remote: PeerEndpoint(ip: 0x7F00_0001, port: receiver.port), clientKey: clientKey).get()
        let client = try SRTPSession(profile: .aeadAES128GCM, keyingMaterial: clientKey, direction: .sender)
        var report = ScriptedPacket.receiverReport() + [UInt8](repeating: 0, count: 64)
        var length = RTCPWriter.emptyReceiverReportLength
        #expect(report.withUnsafeMutableBytes { client.protectRTCP($0.baseAddress!, length: &length, capacity: $0.count) } == .ok)
        report = Array(report[0..<length])
        _ = report.withUnsafeBytes { pkr_udp_send(receiver.fd, $0.baseAddress!, UInt32($0.count), 0x7F00_0001, UInt16(subscriber.port)) }
        usleep(20_000)
        plane.place(transports: [subscriber.id], group: "room")
        plane.addSink(MediaSinkSpec(id: 20, transportId: subscriber.id, outputSSRC: 0xBBBB_0002, isVideo: false, clockRate: 48_000))
        plane.bind(sink: 20, source: 10)

        var arrived: [[UInt8]] = []
        for attempt in 0..<200 where arrived.isEmpty {
            let packet = ScriptedPacket.audio(ssrc: 0xAAAA_0001, sequenceNumber: UInt16(attempt), timestamp: UInt32(attempt) * 960)
            _ = packet.withUnsafeBytes { pkr_udp_send(sender, $0.baseAddress!, UInt32($0.count), 0x7F00_0001, UInt16(publisher.port)) }
            usleep(5_000)
            arrived += MediaShellReceiveBatchTests.available(on: receiver.fd).filter { $0.count > 1 && !(192...223).contains($0[1]) }
        }
        #expect(!arrived.isEmpty, "drops: \(plane.latestReport().counters.drops)")
    }
}
