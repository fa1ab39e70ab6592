import CSocketShims
import Foundation
import RTPWire
import Testing

@testable import MediaPlane

/// Transport-wide feedback on real UDP on 127.0.0.1: a publisher's socket sends RTP carrying
/// transport-wide sequence numbers to a running media plane, and reads back the feedback the
/// data-plane thread sends on its timer, parsed as a sender's estimator would parse it.
@Suite struct TransportFeedbackSocketTests {
    static let loopback: UInt32 = 0x7F00_0001
    static let ssrc: UInt32 = 0xAAAA_0001

    /// What the feedbacks that reached the publisher reported: every packet's latest status by
    /// transport-wide sequence number (a later report of a number replaces an earlier one), the
    /// feedback packet counts in arrival order, and the media and sender SSRCs they named.
    struct Reports {
        var arrivals: [UInt16: Int64?] = [:]
        var feedbackCounts: [UInt8] = []
        var mediaSSRCs: Set<UInt32> = []
        var senderSSRCs: Set<UInt32> = []
        var order: [(UInt16, Int64?)] = []

        mutating func read(_ datagram: [UInt8]) {
            datagram.withUnsafeBytes { buffer in
                var iterator = RTCPPacketIterator(buffer)
                while let view = iterator.next() {
                    guard let common = RTCPFeedback(view: view, in: buffer),
                        let feedback = RTCPTransportFeedback(feedback: common, in: buffer)
                    else { continue }
                    feedbackCounts.append(feedback.feedbackPacketCount)
                    mediaSSRCs.insert(feedback.mediaSSRC)
                    senderSSRCs.insert(feedback.senderSSRC)
                    feedback.forEachPacket(in: buffer) { number, arrival in
                        arrivals[number] = arrival
                        order.append((number, arrival))
                    }
                }
            }
        }
    }

    @Test func aPublisherGetsFeedbackForEveryPacketItSent() throws {
        var configuration = MediaPlaneConfiguration()
        configuration.threads = 1
        configuration.webRTCPort = nil
        configuration.portRange = 47_920...47_921
        configuration.segmentationOffload = .off
        configuration.receiveOffload = .off
        let plane = try MediaPlane(configuration: configuration)
        plane.start()
        let publisherSocket = pkr_udp_open(Self.loopback, 0, 1 << 20, 1 << 20)
        defer {
            plane.stop()
            if publisherSocket >= 0 { _ = pkr_close(publisherSocket) }
        }
        try #require(publisherSocket >= 0)
        let transport = try plane.openTransport(profile: nil, group: "room").get()
        let publisherAddress = PeerEndpoint(ip: Self.loopback, port: UInt16(pkr_udp_local_port(publisherSocket)))
        try plane.connectTransport(id: transport.id, remote: publisherAddress, clientKey: nil, addressGranted: true).get()
        plane.addSource(MediaSourceSpec(id: 1, transportId: transport.id, ssrc: Self.ssrc, isVideo: true, codec: "VP8", clockRate: 90_000))
        plane.setCongestionControl(transportId: transport.id, CongestionControlSpec(receivedSequenceExtensionId: MediaCoreCongestionFeedbackTests.extensionId))

        func send(_ transportSequence: UInt16) {
            let bytes = MediaCoreCongestionFeedbackTests.packet(ssrc: Self.ssrc, sequenceNumber: transportSequence, transportSequence: transportSequence)
            _ = bytes.withUnsafeBytes { pkr_udp_send(publisherSocket, $0.baseAddress!, UInt32($0.count), Self.loopback, UInt16(transport.port)) }
        }

        // The commands reach the data-plane thread on its next turn: send the first packet until
        // a feedback answers it.
        var reports = Reports()
        for _ in 0..<200 where reports.arrivals[0] == nil {
            send(0)
            usleep(10_000)
            while let datagram = SendOnlySocketTests.receive(on: publisherSocket) { reports.read(datagram.bytes) }
        }
        try #require(reports.arrivals[0] != nil)

        // 60 packets 2 ms apart, number 30 held back (lost), number 45 sent after 50 (reordered).
        let numbers = (1...60).filter { $0 != 30 && $0 != 45 }.flatMap { $0 == 50 ? [50, 45] : [$0] }
        for number in numbers {
            send(UInt16(number))
            usleep(2_000)
        }
        // Feedback comes at least every 250 ms: wait for the last packet's.
        for _ in 0..<100 where reports.arrivals[60] == nil {
            usleep(10_000)
            while let datagram = SendOnlySocketTests.receive(on: publisherSocket) { reports.read(datagram.bytes) }
        }

        for number in numbers { #expect(reports.arrivals[UInt16(number)] != nil, "packet \(number) reported as received") }
        // 30 never came: reported, as not received.
        #expect(reports.arrivals.keys.contains(30))
        #expect(reports.arrivals[30] == .some(nil))
        // Each packet arrived no earlier than the one sent before it (one socket, one path).
        let arrivals = numbers.compactMap { reports.arrivals[UInt16($0)] ?? nil }
        #expect(arrivals.count == numbers.count)
        #expect(zip(arrivals, arrivals.dropFirst()).allSatisfy { $0 <= $1 })
        // Several feedbacks, numbered one after another from 0, all about the publisher's stream.
        #expect(reports.feedbackCounts.count >= 2)
        #expect(reports.feedbackCounts == (0..<reports.feedbackCounts.count).map { UInt8(truncatingIfNeeded: $0) })
        #expect(reports.mediaSSRCs == [Self.ssrc])
        #expect(reports.senderSSRCs.count == 1 && !reports.senderSSRCs.contains(Self.ssrc))
    }
}
