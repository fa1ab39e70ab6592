/// The most recent packets sent on one outgoing stream, kept so NACKed packets can be resent.
///
/// All memory is allocated once, in `init`, as a single block: one header per slot followed by
/// `capacity` packet slots of `maximumPacketSize` bytes. A packet lives in the slot given by the
/// low bits of its sequence number, so storing and looking up never search and never allocate.
///
/// The buffer belongs to the one thread that forwards the stream and is deliberately not
/// `Sendable`.
public final class RetransmissionBuffer {
    /// The number of packets the buffer holds, a power of two.
    public let capacity: Int
    /// The largest packet, in bytes, that can be stored; larger ones are skipped.
    public let maximumPacketSize: Int

    /// `capacity - 1`, masking a sequence number down to its slot.
    private let slotMask: Int
    /// The start of the single allocation, which is also the first slot header.
    private let headers: UnsafeMutablePointer<RetransmissionSlotHeader>
    /// The first byte of the packet area that follows the headers.
    private let packetBytes: UnsafeMutableRawPointer
    /// The serial the next stored packet gets.
    private var nextSerial: UInt32 = 1

    /// Creates an empty buffer and allocates all the memory it will ever use.
    ///
    /// - Parameters:
    ///   - capacity: The number of packets kept; a power of two from 1 to 65 536.
    ///   - maximumPacketSize: The largest packet kept, in bytes.
    public init(capacity: Int = 512, maximumPacketSize: Int = 1500) {
        precondition(
            capacity > 0 && capacity <= 65_536 && capacity & (capacity - 1) == 0,
            "capacity must be a power of two between 1 and 65536")
        precondition(
            maximumPacketSize > 0 && maximumPacketSize <= Int(Int32.max),
            "maximumPacketSize must be positive")
        self.capacity = capacity
        self.maximumPacketSize = maximumPacketSize
        self.slotMask = capacity - 1

        let headerBytes = capacity * MemoryLayout<RetransmissionSlotHeader>.stride
        let block = UnsafeMutableRawPointer.allocate(
            byteCount: headerBytes + capacity * maximumPacketSize,
            alignment: MemoryLayout<RetransmissionSlotHeader>.alignment
        )
        self.headers = block.bindMemory(to: RetransmissionSlotHeader.self, capacity: capacity)
        self.headers.initialize(repeating: .empty, count: capacity)
        self.packetBytes = block + headerBytes
    }

    deinit {
        headers.deinitialize(count: capacity)
        UnsafeMutableRawPointer(headers).deallocate()
    }

    /// Keeps a copy of a sent packet, replacing whatever occupied its slot.
    ///
    /// - Parameters:
    ///   - sequenceNumber: The packet's sequence number as the receiver saw it.
    ///   - packet: The packet bytes; packets larger than ``maximumPacketSize`` are not stored,
    ///     but still empty the slot when it held an older packet with the same number: that
    ///     number now names the packet that could not be kept.
    ///   - nowMs: The current monotonic time in milliseconds.
    /// - Returns: Whether the packet was stored.
    @discardableResult
    public func store(sequenceNumber: UInt16, packet: UnsafeRawBufferPointer, nowMs: Int64) -> Bool {
        let slot = Int(sequenceNumber) & slotMask
        guard packet.count <= maximumPacketSize else {
            if headers[slot].sequenceNumber == sequenceNumber { headers[slot] = .empty }
            return false
        }
        if let source = packet.baseAddress, packet.count > 0 {
            (packetBytes + slot * maximumPacketSize).copyMemory(from: source, byteCount: packet.count)
        }
        headers[slot] = RetransmissionSlotHeader(
            sequenceNumber: sequenceNumber,
            length: Int32(packet.count),
            storedMs: nowMs,
            serial: nextSerial
        )
        nextSerial = nextSerial == UInt32.max ? 1 : nextSerial + 1
        return true
    }

    /// Which store put the packet numbered `sequenceNumber` into the buffer: a number that no
    /// other stored packet had for 2^32 - 1 stores, so that a caller who noted it when the packet
    /// went out can tell that packet from a later one stored under the same sequence number.
    /// 0 when no packet with that number is held.
    @inline(__always)
    public func serial(of sequenceNumber: UInt16) -> UInt32 {
        let header = headers[Int(sequenceNumber) & slotMask]
        guard header.length != RetransmissionSlotHeader.emptyLength, header.sequenceNumber == sequenceNumber else { return 0 }
        return header.serial
    }

    /// Gives temporary access to a stored packet.
    ///
    /// - Parameters:
    ///   - sequenceNumber: The sequence number of the wanted packet.
    ///   - nowMs: The current monotonic time in milliseconds.
    ///   - maximumAgeMs: Packets stored longer ago than this are treated as gone, since a
    ///     retransmission that late is useless to the receiver.
    ///   - body: Reads the packet; the buffer is valid only during the call.
    /// - Returns: What `body` returned, or `nil` when the packet was never stored, has been
    ///   overwritten by a newer packet sharing its slot, or is too old.
    public func withPacket<Result, Failure: Error>(
        sequenceNumber: UInt16,
        nowMs: Int64,
        maximumAgeMs: Int64,
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        let slot = Int(sequenceNumber) & slotMask
        let header = headers[slot]
        guard header.length != RetransmissionSlotHeader.emptyLength,
            header.sequenceNumber == sequenceNumber,
            nowMs - header.storedMs <= maximumAgeMs
        else { return nil }
        let bytes = UnsafeRawBufferPointer(
            start: UnsafeRawPointer(packetBytes + slot * maximumPacketSize),
            count: Int(header.length)
        )
        return try body(bytes)
    }

    /// Forgets every stored packet, keeping the memory for reuse.
    public func reset() {
        headers.update(repeating: .empty, count: capacity)
    }
}
