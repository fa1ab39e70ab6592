import CSocketShims
import Foundation
import Testing

@testable import MediaPlane

/// The IPv6 socket shims over real sockets on ::1: a send batch prepared as for any transport
/// leaves for one IPv6 peer, plain or segmented, every datagram intact and in order, and the
/// batch then sends to its own IPv4 destinations again; a receiving batch reads IPv6 sources.
@Suite struct IPv6SocketTests {
    static let loopback = IPv6Address(high: 0, low: 1)

    /// Fills slot `index` with `length` bytes that name it, prepared for an IPv4 destination.
    static func prepare(_ batch: OpaquePointer, _ index: Int, length: Int, port: UInt16) {
        let slot = pkr_batch_buffer(batch, UInt32(index))!
        for offset in 0..<length { slot[offset] = UInt8(truncatingIfNeeded: index &* 31 &+ offset) }
        pkr_batch_prepare(batch, UInt32(index), UInt32(length), 0x7F00_0001, port)
    }

    static func expected(_ index: Int, length: Int) -> [UInt8] { (0..<length).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) } }

    /// Reads batches from `fd` until `count` datagrams came or five seconds passed: each one's
    /// bytes, source address and port.
    static func receive6(_ fd: Int32, count: Int) -> [(bytes: [UInt8], address: IPv6Address, port: UInt16)] {
        let batch = pkr_batch_create(16, 2048)!
        defer { pkr_batch_destroy(batch) }
        var got: [(bytes: [UInt8], address: IPv6Address, port: UInt16)] = []
        let deadline = Date().addingTimeInterval(5)
        while got.count < count, Date() < deadline {
            let received = pkr_batch_receive6(fd, batch)
            if received <= 0 {
                usleep(1000)
                continue
            }
            for index in 0..<UInt32(received) {
                var high: UInt64 = 0
                var low: UInt64 = 0
                let port = pkr_batch_source6(batch, index, &high, &low)
                let length = Int(pkr_batch_length(batch, index))
                got.append((Array(UnsafeBufferPointer(start: pkr_batch_buffer(batch, index), count: length)), IPv6Address(high: high, low: low), port))
            }
        }
        return got
    }

    @Test("text parses into the halves; IPv4 text, brackets and zones are refused")
    func addressText() {
        #expect(IPv6Address("::1") == Self.loopback)
        #expect(IPv6Address("2001:db8::5") == IPv6Address(high: 0x2001_0DB8_0000_0000, low: 5))
        #expect(IPv6Address("2001:0DB8:0:0:0:0:0:5") == IPv6Address(high: 0x2001_0DB8_0000_0000, low: 5))
        #expect(IPv6Address("::")?.isUnspecified == true)
        for bad in ["127.0.0.1", "[::1]", "fe80::1%eth0", "", "2001:db8::g", "1:2:3:4:5:6:7:8:9"] { #expect(IPv6Address(bad) == nil, "\(bad)") }
    }

    @Test("a batch goes to one IPv6 peer, plain and segmented, and afterwards to its IPv4 destinations", arguments: [false, true])
    func sendToOnePeer(segmented: Bool) throws {
        if segmented, pkr_udp_segmentation_supported() == 0 { return }
        let sender = pkr_udp_open6(0, 1, 0, 0, 4 << 20)
        let receiver = pkr_udp_open6(0, 1, 0, 4 << 20, 0)
        let receiver4 = pkr_udp_open(0x7F00_0001, 0, 4 << 20, 0)
        let sender4 = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
        defer { for fd in [sender, receiver, receiver4, sender4] where fd >= 0 { _ = pkr_close(fd) } }
        try #require(sender >= 0 && receiver >= 0 && receiver4 >= 0 && sender4 >= 0, "sockets on ::1 and 127.0.0.1")
        let receiverPort = UInt16(pkr_udp_local_port(receiver))
        let batch = pkr_batch_create(8, 1600)!
        defer { pkr_batch_destroy(batch) }
        _ = pkr_batch_send_layout(batch)
        // 1460 bytes fit an IPv4 segment but not an IPv6 one (1452): those go alone.
        let lengths = [1200, 1200, 1200, 1200, 900, 300, 1460, 1460]
        for (index, length) in lengths.enumerated() { Self.prepare(batch, index, length: length, port: UInt16(pkr_udp_local_port(receiver4))) }

        var tally = pkr_send_tally()
        let sent = pkr_batch_send6(sender, batch, UInt32(lengths.count), 0, 1, receiverPort, segmented ? 1 : 0, &tally)
        #expect(sent == Int32(lengths.count))
        let got = Self.receive6(receiver, count: lengths.count)
        #expect(got.map(\.bytes) == lengths.enumerated().map { Self.expected($0.offset, length: $0.element) })
        #expect(got.allSatisfy { $0.address == Self.loopback && $0.port == UInt16(pkr_udp_local_port(sender)) })
        if segmented { #expect(tally.messages == 4 && tally.fallbacks == 0, "[1200 x4, 900], [300], [1460], [1460]: \(tally)") }

        // The same prepared batch, sent as usual, reaches the IPv4 destination it was prepared for.
        #expect(pkr_batch_send(sender4, batch, UInt32(lengths.count)) == Int32(lengths.count))
        var buffer = [UInt8](repeating: 0, count: 2048)
        var arrived = 0
        let deadline = Date().addingTimeInterval(5)
        while arrived < lengths.count, Date() < deadline {
            if buffer.withUnsafeMutableBytes({ recv(receiver4, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 { arrived += 1 } else { usleep(1000) }
        }
        #expect(arrived == lengths.count)
    }

    @Test("one datagram goes with pkr_udp_send6, and an IPv6-only socket leaves the IPv4 port of its number free")
    func singleSend() throws {
        let receiver = pkr_udp_open6(0, 1, 0, 0, 0)
        let sender = pkr_udp_open6(0, 1, 0, 0, 0)
        defer { for fd in [sender, receiver] where fd >= 0 { _ = pkr_close(fd) } }
        try #require(sender >= 0 && receiver >= 0)
        #expect(pkr_udp_send6(sender, "pkrelay", 7, 0, 1, UInt16(pkr_udp_local_port(receiver))) == 7)
        let got = Self.receive6(receiver, count: 1)
        #expect(got.first?.bytes == Array("pkrelay".utf8) && got.first?.address == Self.loopback)
        // The socket is IPv6 only: 127.0.0.1 on its number is another socket's to take.
        let port = UInt16(pkr_udp_local_port(receiver))
        let twin4 = pkr_udp_open(0x7F00_0001, port, 0, 0)
        #expect(twin4 >= 0, "the IPv4 port of the same number is free beside an IPv6-only socket")
        if twin4 >= 0 { _ = pkr_close(twin4) }
    }
}
