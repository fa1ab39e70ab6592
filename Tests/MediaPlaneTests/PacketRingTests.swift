import Foundation
import Testing

@testable import MediaPlane

/// The ring that carries packets between data-plane threads: order, tags, full and empty, wrap
/// around, and two real threads.
@Suite struct PacketRingTests {
    @Test func packetsComeOutInOrderWithTheirTagsAndRefuseWhenFull() {
        let ring = PacketRing(slotCount: 3, slotCapacity: 16)
        #expect(ring.slotCount == 4)
        var popped: [([UInt8], UInt64)] = []
        #expect(!ring.pop { bytes, tag in popped.append((Array(bytes), tag)) })
        for value in 0..<4 {
            let packet = [UInt8](repeating: UInt8(value), count: value + 1)
            #expect(packet.withUnsafeBytes { ring.push($0, tag: UInt64(100 + value)) })
        }
        #expect(![UInt8](repeating: 9, count: 1).withUnsafeBytes { ring.push($0, tag: 9) }, "a full ring refuses")
        #expect(ring.count == 4)
        // Drain two, push two more across the wrap, drain all.
        for _ in 0..<2 { _ = ring.pop { bytes, tag in popped.append((Array(bytes), tag)) } }
        for value in 4..<6 {
            #expect([UInt8](repeating: UInt8(value), count: 2).withUnsafeBytes { ring.push($0, tag: UInt64(100 + value)) })
        }
        while ring.pop({ bytes, tag in popped.append((Array(bytes), tag)) }) {}
        #expect(popped.map(\.1) == [100, 101, 102, 103, 104, 105])
        #expect(popped.map(\.0) == [[0], [1, 1], [2, 2, 2], [3, 3, 3, 3], [4, 4], [5, 5]])
        #expect(ring.count == 0)
    }

    @Test func aPacketLargerThanASlotIsRefused() {
        let ring = PacketRing(slotCount: 2, slotCapacity: 8)
        #expect(![UInt8](repeating: 1, count: 9).withUnsafeBytes { ring.push($0, tag: 1) })
        #expect(ring.count == 0)
    }

    /// One producer thread and one consumer thread: every packet arrives once, in order, intact,
    /// or was refused by a full ring and counted; none is torn or repeated.
    @Test func twoThreadsHandOverEveryPacketInOrder() async {
        let ring = PacketRing(slotCount: 64, slotCapacity: 64)
        let total = 200_000
        let producer = Thread {
            var packet = [UInt8](repeating: 0, count: 40)
            var sent = 0
            while sent < total {
                for index in 0..<8 { packet[index] = UInt8(truncatingIfNeeded: sent >> (index * 8)) }
                packet[39] = UInt8(truncatingIfNeeded: sent &* 31)
                if packet.withUnsafeBytes({ ring.push($0, tag: UInt64(sent)) }) { sent += 1 }
            }
        }
        producer.start()
        var expected = 0
        var problems = 0
        while expected < total {
            _ = ring.pop { bytes, tag in
                var number = 0
                for index in 0..<8 { number |= Int(bytes[index]) << (index * 8) }
                if number != expected || tag != UInt64(expected) || bytes.count != 40 || bytes[39] != UInt8(truncatingIfNeeded: expected &* 31) {
                    problems += 1
                }
                expected += 1
            }
        }
        #expect(problems == 0)
        #expect(expected == total)
        #expect(ring.count == 0)
    }
}
