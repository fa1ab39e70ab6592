import RTPWire
import Testing

@Suite("Wrap-aware sequence and timestamp maths")
struct SequenceNumberTests {
    /// (a, b, a is newer than b, distance from b to a)
    static let pairs: [(a: UInt16, b: UInt16, newer: Bool, distance: Int)] = [
        (1, 0, true, 1),
        (0, 1, false, -1),
        (5, 5, false, 0),
        (0, 65535, true, 1),
        (65535, 0, false, -1),
        (10, 65530, true, 16),
        (65530, 10, false, -16),
        (32767, 0, true, 32767),
        (32768, 0, false, -32768),
        (0, 32768, false, -32768),
        (100, 40000, true, 25636),
    ]

    @Test("isNewer and distance", arguments: pairs)
    func comparisons(_ row: (a: UInt16, b: UInt16, newer: Bool, distance: Int)) {
        #expect(SequenceNumber.isNewer(row.a, than: row.b) == row.newer)
        #expect(SequenceNumber.distance(from: row.b, to: row.a) == row.distance)
        #expect((-32768...32767).contains(SequenceNumber.distance(from: row.a, to: row.b)))
    }

    /// Arrival order and the unwrapped values expected.
    static let unwrapSequences: [(input: [UInt16], expected: [Int64])] = [
        ([1, 2, 3], [1, 2, 3]),
        ([65534, 65535, 0, 1], [65534, 65535, 65536, 65537]),
        ([65535, 1, 0, 2], [65535, 65537, 65536, 65538]),  // reordered across the wrap
        ([0, 0, 1, 1], [0, 0, 1, 1]),  // duplicates
        ([100, 65500], [100, -36]),  // older than the first packet
        ([65000, 200, 64000, 300], [65000, 65736, 64000, 65836]),
    ]

    @Test("SequenceUnwrapper handles wraps, reordering and duplicates", arguments: unwrapSequences)
    func unwrap(_ row: (input: [UInt16], expected: [Int64])) {
        var unwrapper = SequenceUnwrapper()
        let values = row.input.map { unwrapper.unwrap($0) }
        #expect(values == row.expected)
        #expect(unwrapper.lastUnwrapped == row.expected.last)
    }

    @Test("SequenceUnwrapper stays monotonic over several wraps", arguments: [1, 7, 1000, 30000])
    func unwrapManyWraps(_ step: Int) {
        var unwrapper = SequenceUnwrapper()
        var expected = Int64(40000)
        var sequence = UInt16(40000)
        #expect(unwrapper.unwrap(sequence) == expected)
        for _ in 0..<(5 * 65536 / step) {
            sequence &+= UInt16(step)
            expected += Int64(step)
            let value = unwrapper.unwrap(sequence)
            #expect(value == expected)
            if value != expected { break }
        }
        #expect(expected > 5 * 65536)
    }

    @Test("SequenceUnwrapper peek and reset")
    func peekAndReset() {
        var unwrapper = SequenceUnwrapper()
        #expect(unwrapper.peek(7) == 7)
        #expect(unwrapper.lastUnwrapped == nil)
        _ = unwrapper.unwrap(65535)
        #expect(unwrapper.peek(0) == 65536)
        #expect(unwrapper.lastUnwrapped == 65535)
        unwrapper.reset()
        #expect(unwrapper.unwrap(0) == 0)
    }

    /// (a, b, a is newer than b, distance from b to a)
    static let timestampPairs: [(a: UInt32, b: UInt32, newer: Bool, distance: Int64)] = [
        (3000, 0, true, 3000),
        (0, 3000, false, -3000),
        (1000, 4_294_966_296, true, 2000),
        (0x7FFF_FFFF, 0, true, 0x7FFF_FFFF),
        (0x8000_0000, 0, false, -0x8000_0000),
        (7, 7, false, 0),
    ]

    @Test("RTPTimestamp isNewer and distance", arguments: timestampPairs)
    func timestampComparisons(_ row: (a: UInt32, b: UInt32, newer: Bool, distance: Int64)) {
        #expect(RTPTimestamp.isNewer(row.a, than: row.b) == row.newer)
        #expect(RTPTimestamp.distance(from: row.b, to: row.a) == row.distance)
    }

    @Test("TimestampUnwrapper across wraps with B-frame reordering")
    func timestampUnwrap() {
        var unwrapper = TimestampUnwrapper()
        let start: UInt32 = 4_294_900_000
        #expect(unwrapper.unwrap(start) == Int64(start))
        // 90 kHz video at 30 fps, with a frame arriving out of order right at the wrap.
        #expect(unwrapper.unwrap(start &+ 6000) == Int64(start) + 6000)
        #expect(unwrapper.unwrap(start &+ 90000) == Int64(start) + 90000)
        #expect(unwrapper.unwrap(start &+ 87000) == Int64(start) + 87000)
        var expected = Int64(start) + 87000
        var timestamp = start &+ 87000
        for _ in 0..<10 {
            timestamp &+= 1_000_000_000
            expected += 1_000_000_000
            #expect(unwrapper.unwrap(timestamp) == expected)
        }
        #expect(expected > 2 * Int64(UInt32.max))
        unwrapper.reset()
        #expect(unwrapper.lastUnwrapped == nil)
    }
}
