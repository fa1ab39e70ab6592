/// What one subscriber transport sent, by transport-wide sequence number: when, how many bytes,
/// and in which probe cluster, so that a transport-wide feedback can be matched to it.
///
/// The log hands out the numbers itself (the relay is the sender of this transport-wide
/// sequence), and keeps them in a ring of ``capacity`` slots indexed by the low bits of the
/// 64-bit number, allocated once: recording a send is a few stores, never a search or an
/// allocation. A number reported after its slot was reused is simply not found. One thread owns
/// it (not `Sendable`).
public final class SentPacketLog {
    /// Packets remembered by default: 2 048 entries of 24 bytes (48 KiB per subscriber
    /// transport), about 2 s of packets at 10 Mbit/s, where feedback comes every 50 to 250 ms
    /// plus a round trip.
    public static let defaultCapacity = 2048
    /// Packets remembered: a power of two.
    public let capacity: Int
    let mask: Int64

    /// How a packet has been reported so far.
    enum Report: UInt8 {
        case none = 0
        case lost = 1
        case received = 2
    }

    /// One slot: everything about a packet in one 24-byte entry, so logging a send touches one
    /// cache line (separate arrays per field took five, and three times as long).
    struct Entry {
        var sequence: Int64
        var sendUs: Int64
        var cluster: Int32
        var bytes: UInt16
        var report: UInt8
    }

    private let entries: UnsafeMutablePointer<Entry>
    /// The 64-bit number the next packet gets.
    public private(set) var nextSequence: Int64 = 0

    /// A log of `capacity` entries, rounded up to a power of two (at least 1). A transport that
    /// stamps nothing (its estimate comes from receiver reports) needs no more than one.
    public init(capacity: Int = SentPacketLog.defaultCapacity) {
        let rounded = capacity <= 1 ? 1 : 1 << (Int.bitWidth - (capacity - 1).leadingZeroBitCount)
        self.capacity = rounded
        mask = Int64(rounded - 1)
        entries = .allocate(capacity: rounded)
        entries.initialize(repeating: Entry(sequence: -1, sendUs: 0, cluster: -1, bytes: 0, report: 0), count: rounded)
    }

    deinit {
        entries.deallocate()
    }

    /// Records a packet of `bytes` bytes sent at `sendUs` (in probe cluster `probeCluster`, or
    /// -1) and returns the transport-wide sequence number to stamp on it.
    public func recordSent(bytes: Int, sendUs: Int64, probeCluster: Int32 = -1) -> UInt16 {
        let sequence = nextSequence
        nextSequence += 1
        entries[Int(sequence & mask)] = Entry(
            sequence: sequence, sendUs: sendUs, cluster: probeCluster, bytes: UInt16(clamping: bytes), report: Report.none.rawValue)
        return UInt16(truncatingIfNeeded: sequence)
    }

    /// The slot of the sent packet with wire number `wire`, placed nearest to the highest number
    /// handed out; nil when no packet with that number is remembered.
    func slot(ofWire wire: UInt16) -> Int? {
        let highest = nextSequence - 1
        guard highest >= 0 else { return nil }
        let sequence = highest + Int64(Int16(bitPattern: wire &- UInt16(truncatingIfNeeded: highest)))
        guard sequence >= 0, sequence <= highest else { return nil }
        let slot = Int(sequence & mask)
        return entries[slot].sequence == sequence ? slot : nil
    }

    func sendUs(at slot: Int) -> Int64 { entries[slot].sendUs }
    func bytes(at slot: Int) -> Int { Int(entries[slot].bytes) }
    func cluster(at slot: Int) -> Int32 { entries[slot].cluster }
    func report(at slot: Int) -> Report { Report(rawValue: entries[slot].report) ?? .none }
    func setReport(_ report: Report, at slot: Int) { entries[slot].report = report.rawValue }
}
