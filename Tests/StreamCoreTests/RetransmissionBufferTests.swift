import Testing

@testable import StreamCore

@Suite struct RetransmissionBufferTests {
    /// Stores `bytes` under `sequenceNumber`.
    @discardableResult
    func store(_ buffer: RetransmissionBuffer, _ sequenceNumber: UInt16, _ bytes: [UInt8], at nowMs: Int64) -> Bool {
        bytes.withUnsafeBytes { buffer.store(sequenceNumber: sequenceNumber, packet: $0, nowMs: nowMs) }
    }

    /// The bytes stored under `sequenceNumber`, or `nil`.
    func lookUp(
        _ buffer: RetransmissionBuffer, _ sequenceNumber: UInt16, at nowMs: Int64,
        maximumAgeMs: Int64 = 1000
    ) -> [UInt8]? {
        buffer.withPacket(sequenceNumber: sequenceNumber, nowMs: nowMs, maximumAgeMs: maximumAgeMs) { Array($0) }
    }

    @Test func storedPacketsComeBackByteForByte() {
        let buffer = RetransmissionBuffer()
        #expect(buffer.capacity == 512)
        #expect(buffer.maximumPacketSize == 1500)
        let large = (0..<1500).map { UInt8(truncatingIfNeeded: $0 * 7) }
        #expect(store(buffer, 42, [1, 2, 3], at: 0))
        #expect(store(buffer, 43, large, at: 0))
        #expect(lookUp(buffer, 42, at: 10) == [1, 2, 3])
        #expect(lookUp(buffer, 43, at: 10) == large)
        #expect(lookUp(buffer, 44, at: 10) == nil)
    }

    @Test func newerPacketInTheSameSlotReplacesTheOlder() {
        let buffer = RetransmissionBuffer(capacity: 4, maximumPacketSize: 16)
        store(buffer, 1, [0xAA, 0xBB, 0xCC, 0xDD], at: 0)
        store(buffer, 5, [0x11], at: 5)
        #expect(lookUp(buffer, 1, at: 10) == nil)
        #expect(lookUp(buffer, 5, at: 10) == [0x11])
        // Slot sharing also across the sequence number wrap-around.
        store(buffer, 65_535, [9, 9], at: 6)
        store(buffer, 3, [3], at: 7)
        #expect(lookUp(buffer, 65_535, at: 10) == nil)
        #expect(lookUp(buffer, 3, at: 10) == [3])
    }

    @Test(arguments: [
        (lookupMs: Int64(1000), found: true),
        (lookupMs: 1500, found: true),
        (lookupMs: 1501, found: false),
        (lookupMs: 90_000, found: false),
    ])
    func packetsOlderThanMaximumAgeAreGone(lookupMs: Int64, found: Bool) {
        let buffer = RetransmissionBuffer(capacity: 8)
        store(buffer, 7, [7, 7, 7], at: 1000)
        #expect((lookUp(buffer, 7, at: lookupMs, maximumAgeMs: 500) != nil) == found)
    }

    @Test func oversizedPacketsAreNotStored() {
        let buffer = RetransmissionBuffer(capacity: 8, maximumPacketSize: 8)
        store(buffer, 2, [1, 2], at: 0)
        #expect(!store(buffer, 10, [UInt8](repeating: 0xEE, count: 9), at: 1))
        // The previous occupant of the slot, another number, is untouched.
        #expect(lookUp(buffer, 2, at: 2) == [1, 2])
        #expect(store(buffer, 3, [UInt8](repeating: 0xEE, count: 8), at: 1))
        #expect(lookUp(buffer, 3, at: 2)?.count == 8)
        // One with the same number is gone: a NACK for that number now means the packet that
        // could not be kept, and must not be answered with the older one.
        let serial = buffer.serial(of: 2)
        #expect(serial != 0)
        #expect(!store(buffer, 2, [UInt8](repeating: 0xEE, count: 9), at: 3))
        #expect(lookUp(buffer, 2, at: 4) == nil)
        #expect(buffer.serial(of: 2) == 0)
    }

    /// Every store gets a serial of its own, so a packet stored again under one number (a repeat,
    /// a restarted sender) is told from the first.
    @Test func everyStoreHasItsOwnSerial() {
        let buffer = RetransmissionBuffer(capacity: 8, maximumPacketSize: 8)
        #expect(buffer.serial(of: 5) == 0)
        store(buffer, 5, [1], at: 0)
        let first = buffer.serial(of: 5)
        store(buffer, 5, [2], at: 0)
        let second = buffer.serial(of: 5)
        #expect(first != 0 && second != 0 && first != second)
        store(buffer, 13, [3], at: 0)
        #expect(buffer.serial(of: 5) == 0, "the slot now holds 13")
        #expect(buffer.serial(of: 13) != second)
    }

    @Test func shorterPacketInTheSameSlotReportsItsOwnLength() {
        let buffer = RetransmissionBuffer(capacity: 2, maximumPacketSize: 32)
        store(buffer, 0, [UInt8](repeating: 1, count: 20), at: 0)
        store(buffer, 2, [5, 6], at: 0)
        #expect(lookUp(buffer, 2, at: 0) == [5, 6])
    }

    @Test func resetForgetsEverything() {
        let buffer = RetransmissionBuffer(capacity: 16)
        for sequence in UInt16(0)..<16 { store(buffer, sequence, [UInt8(sequence)], at: 0) }
        #expect(lookUp(buffer, 9, at: 0) == [9])
        buffer.reset()
        for sequence in UInt16(0)..<16 { #expect(lookUp(buffer, sequence, at: 0) == nil) }
        store(buffer, 9, [42], at: 1)
        #expect(lookUp(buffer, 9, at: 1) == [42])
    }

    @Test func bodyResultAndErrorsPassThrough() {
        struct Refused: Error {}
        let buffer = RetransmissionBuffer(capacity: 4)
        store(buffer, 1, [1, 2, 3, 4], at: 0)
        let count = buffer.withPacket(sequenceNumber: 1, nowMs: 0, maximumAgeMs: 10) { $0.count }
        #expect(count == 4)
        #expect(throws: Refused.self) {
            try buffer.withPacket(sequenceNumber: 1, nowMs: 0, maximumAgeMs: 10) { _ throws(Refused) in throw Refused() }
        }
    }
}
