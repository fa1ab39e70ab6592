import Synchronization

/// A preallocated single-producer, single-consumer ring of datagram-sized slots: how one
/// data-plane thread hands packets to another without a lock, an allocation or a
/// read-modify-write.
///
/// The producer owns `tail`, the consumer owns `head`; each only stores its own index (release)
/// and loads the other's (acquire), and keeps a cached copy of it so that a burst touches the
/// other core's cache line once. A full ring refuses the packet (the caller counts a drop):
/// media that cannot keep up is better lost than queued without bound.
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
    /// The next slot the consumer reads; stored only by the consumer.
    private let head = Atomic<Int>(0)
    /// The next slot the producer writes; stored only by the producer.
    private let tail = Atomic<Int>(0)
    /// The producer's last view of `head`.
    private var producerHeadCache = 0
    /// The consumer's last view of `tail`.
    private var consumerTailCache = 0

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
    }

    deinit {
        storage.deallocate()
        lengths.deallocate()
        tags.deallocate()
    }

    // MARK: Producer side

    /// Copies a packet into the next slot with a tag (what it is and for whom); false when the
    /// ring is full or the packet does not fit a slot.
    @inline(__always)
    func push(_ packet: UnsafeRawBufferPointer, tag: UInt64) -> Bool {
        guard packet.count <= slotCapacity else { return false }
        let position = tail.load(ordering: .relaxed)
        if position - producerHeadCache == slotCount {
            producerHeadCache = head.load(ordering: .acquiring)
            if position - producerHeadCache == slotCount { return false }
        }
        let slot = position & mask
        if let base = packet.baseAddress, packet.count > 0 { (storage + slot * slotCapacity).copyMemory(from: base, byteCount: packet.count) }
        lengths[slot] = packet.count
        tags[slot] = tag
        tail.store(position + 1, ordering: .releasing)
        return true
    }

    // MARK: Consumer side

    /// Hands the oldest packet to `body` (valid only during the call) and frees its slot; false
    /// when the ring is empty.
    @inline(__always)
    func pop(_ body: (UnsafeMutableRawBufferPointer, UInt64) -> Void) -> Bool {
        let position = head.load(ordering: .relaxed)
        if position == consumerTailCache {
            consumerTailCache = tail.load(ordering: .acquiring)
            if position == consumerTailCache { return false }
        }
        let slot = position & mask
        body(UnsafeMutableRawBufferPointer(start: storage + slot * slotCapacity, count: lengths[slot]), tags[slot])
        head.store(position + 1, ordering: .releasing)
        return true
    }

    /// Packets waiting, as the consumer sees them now.
    var count: Int { tail.load(ordering: .acquiring) - head.load(ordering: .acquiring) }
}
