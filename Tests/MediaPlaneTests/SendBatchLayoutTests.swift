import CSocketShims
import Testing

@testable import MediaPlane

/// Messages queued through a send batch's layout, as the media core queues every datagram, over
/// real loopback sockets: whole and split, to two destinations, sent one by one and segmented.
@Suite struct SendBatchLayoutTests {
    /// Queues, per receiver in turn: a whole 1200-byte message, a split one (a 12-byte head in its
    /// buffer, the rest from elsewhere), and a short whole one. Returns what each should receive.
    static func queue(_ layout: SendBatchLayout, tail: UnsafeRawBufferPointer, to receivers: [SegmentedSendTests.Receiver]) -> [[[UInt8]]] {
        var expected: [[[UInt8]]] = []
        var index = 0
        for (number, receiver) in receivers.enumerated() {
            let destination = PeerEndpoint(ip: 0x7F00_0001, port: receiver.port)
            var datagrams: [[UInt8]] = []
            for (length, headLength) in [(1200, 1200), (1200, 12), (300, 300)] {
                let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index &+ number) }
                let buffer = layout.buffer(at: index)
                if headLength == length {
                    buffer.copyMemory(from: bytes, byteCount: length)
                    layout.prepare(at: index, length: length, to: destination)
                } else {
                    // The tail lies elsewhere, as a packet's payload in the receive batch does.
                    buffer.copyMemory(from: bytes, byteCount: headLength)
                    let rest = UnsafeMutableRawPointer(mutating: tail.baseAddress!) + index * 2048
                    rest.copyMemory(from: Array(bytes[headLength...]), byteCount: length - headLength)
                    layout.prepareSplit(at: index, headLength: headLength, tail: rest, tailLength: length - headLength, to: destination)
                }
                #expect(layout.preparedLength(at: index) == length)
                datagrams.append(bytes)
                index += 1
            }
            expected.append(datagrams)
        }
        return expected
    }

    @Test(arguments: [false, true])
    func everyQueuedDatagramArrivesWholeAtItsDestination(segmented: Bool) throws {
        if segmented, pkr_udp_segmentation_supported() == 0 { return }
        let sender = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
        defer { _ = pkr_close(sender) }
        let receivers = [try SegmentedSendTests.Receiver(), try SegmentedSendTests.Receiver()]
        defer { for receiver in receivers { _ = pkr_close(receiver.fd) } }
        let batch = pkr_batch_create(6, 2048)!
        defer { pkr_batch_destroy(batch) }
        let layout = SendBatchLayout(of: batch)
        let tail = UnsafeMutableRawBufferPointer.allocate(byteCount: 6 * 2048, alignment: 16)
        defer { tail.deallocate() }
        // Two rounds: the second reuses every message of the first.
        for _ in 0..<2 {
            let expected = Self.queue(layout, tail: UnsafeRawBufferPointer(tail), to: receivers)
            var tally = pkr_send_tally()
            let sent = segmented ? pkr_batch_send_segmented(sender, batch, 6, &tally) : pkr_batch_send(sender, batch, 6)
            #expect(sent == 6)
            for (receiver, datagrams) in zip(receivers, expected) {
                #expect(receiver.drain(expecting: datagrams.count) == datagrams)
            }
            // What the C side reads back from the same slots: lengths and destinations.
            for index in 0..<6 {
                #expect(Int(pkr_batch_prepared_length(batch, UInt32(index))) == expected[index / 3][index % 3].count)
                #expect(pkr_batch_source_port(batch, UInt32(index)) == receivers[index / 3].port)
                #expect(pkr_batch_source_ip(batch, UInt32(index)) == 0x7F00_0001)
            }
        }
    }

    @Test func heldMessagesAreRedirectedToANewAddress() {
        let batch = pkr_batch_create(4, 1600)!
        defer { pkr_batch_destroy(batch) }
        let layout = SendBatchLayout(of: batch)
        let old = PeerEndpoint(ip: 0x0A00_0001, port: 5000)
        let new = PeerEndpoint(ip: 0x0A00_0002, port: 6000)
        for index in 0..<3 { layout.prepare(at: index, length: 100, to: old) }
        layout.redirect(count: 2, to: new)
        #expect(layout.destination(at: 0) == new && layout.destination(at: 1) == new && layout.destination(at: 2) == old)
        #expect(layout.preparedLength(at: 0) == 100)
    }
}
