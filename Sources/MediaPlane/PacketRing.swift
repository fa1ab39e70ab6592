import Synchronization

/// A preallocated single-producer, single-consumer ring of datagram-sized slots: how one
/// data-plane thread hands packets to another without a lock, an allocation or a
/// read-modify-write.
///
/// The producer owns `tail`, the consumer owns `head`; each only stores its own index (release)
/// and loads the other's (acquire), and keeps a cached copy of it so that a burst touches the
/// other core's cache line once. The two indices, each with its side's cached copy, lie
/// ``indexSpacing`` bytes apart, on lines of their own: on one line, every store of one side
/// would take the line from the other side's core (false sharing). A full ring refuses the
/// packet (the caller counts a drop): media that cannot keep up is better lost than queued
/// without bound.
final class PacketRing: @unchecked Sendable {
    // Safe to share between exactly two threads: one calls only the producer methods, the other
    // only the consumer methods; the slots a side touches are handed over by the indices' ordering.

    /// Bytes one slot holds.
    let slotCapacity: Int
    /// Slots in the ring, a power of two.
    let slotCount: Int
    private let mask: Int
    private let storage: UnsafeMutableRawPointer
    private let lengths: UnsafeMutablePointer<Int>
    private let tags: UnsafeMutablePointer<UInt64>
    /// The consumer's index (`head`, the next slot it reads) at the start, the producer's
    /// (`tail`, the next slot it writes) ``indexSpacing`` bytes on.
    private let indices: UnsafeMutableRawPointer
    /// Two cache lines: adjacent-line prefetchers fetch lines in pairs, so one line apart
    /// would still be shared.
    static let indexSpacing = 128

    /// - Parameters:
    ///   - slotCount: rounded up to a power of two (at least 2).
    ///   - slotCapacity: the largest packet a slot takes.
    init(slotCount: Int, slotCapacity: Int) {
        var count = 2
        while count < slotCount { count <<= 1 }
        self.slotCount = count
        self.slotCapacity = slotCapacity
        mask = count - 1
        storage = .allocate(byteCount: count * slotCapacity, alignment: 64)
        lengths = .allocate(capacity: count)
        lengths.initialize(repeating: 0, count: count)
        tags = .allocate(capacity: count)
        tags.initialize(repeating: 0, count: count)
        indices = .allocate(byteCount: 2 * Self.indexSpacing, alignment: 64)
        indices.bindMemory(to: PacketRingIndex.self, capacity: 1).initialize(to: PacketRingIndex())
        (indices + Self.indexSpacing).bindMemory(to: PacketRingIndex.self, capacity: 1).initialize(to: PacketRingIndex())
    }

    deinit {
        head.deinitialize(count: 1)
        tail.deinitialize(count: 1)
        indices.deallocate()
        storage.deallocate()
        lengths.deallocate()
        tags.deallocate()
    }

    /// The consumer's index and its view of the producer's.
    @inline(__always)
    private var head: UnsafeMutablePointer<PacketRingIndex> { indices.assumingMemoryBound(to: PacketRingIndex.self) }

    /// The producer's index and its view of the consumer's.
    @inline(__always)
    private var tail: UnsafeMutablePointer<PacketRingIndex> { (indices + Self.indexSpacing).assumingMemoryBound(to: PacketRingIndex.self) }

    // MARK: Producer side

    /// Copies a packet into the next slot with a tag (what it is and for whom); false when the
    /// ring is full or the packet does not fit a slot.
    @inline(__always)
    func push(_ packet: UnsafeRawBufferPointer, tag: UInt64) -> Bool {
        guard packet.count <= slotCapacity else { return false }
        let tail = tail
        let position = tail.pointee.position.load(ordering: .relaxed)
        if position - tail.pointee.otherSeen == slotCount {
            tail.pointee.otherSeen = head.pointee.position.load(ordering: .acquiring)
            if position - tail.pointee.otherSeen == slotCount { return false }
        }
        let slot = position & mask
        if let base = packet.baseAddress, packet.count > 0 { (storage + slot * slotCapacity).copyMemory(from: base, byteCount: packet.count) }
        lengths[slot] = packet.count
        tags[slot] = tag
        tail.pointee.position.store(position + 1, ordering: .releasing)
        return true
    }

    // MARK: Consumer side

    /// Hands the oldest packet to `body` (valid only during the call) and frees its slot; false
    /// when the ring is empty.
    @inline(__always)
    func pop(_ body: (UnsafeMutableRawBufferPointer, UInt64) -> Void) -> Bool {
        let head = head
        let position = head.pointee.position.load(ordering: .relaxed)
        if position == head.pointee.otherSeen {
            head.pointee.otherSeen = tail.pointee.position.load(ordering: .acquiring)
            if position == head.pointee.otherSeen { return false }
        }
        let slot = position & mask
        body(UnsafeMutableRawBufferPointer(start: storage + slot * slotCapacity, count: lengths[slot]), tags[slot])
        head.pointee.position.store(position + 1, ordering: .releasing)
        return true
    }

    /// Packets waiting, as the consumer sees them now.
    var count: Int { tail.pointee.position.load(ordering: .acquiring) - head.pointee.position.load(ordering: .acquiring) }
}
