/// The IPv6 peers of one shard's IPv6 WebRTC socket, each given an entry whose number goes into
/// its ``PeerEndpoint``: the hot path keys every peer by 64 bits, and an IPv6 address and port
/// do not fit, so the shard names each peer it answers by its entry.
///
/// Only a STUN request from an unknown address takes an entry (everything else it sends could
/// only be dropped, as from any unknown address). When every entry is taken, the entries no
/// transport uses are freed at once (``beginReclaim()``, ``keep(_:)`` for every route and
/// selected peer, ``finishReclaim()``): a flood of checks from many addresses churns those and
/// never the entries of connected peers. A freed entry's generation
/// moves on, so an endpoint that still names the old peer matches nothing.
///
/// Everything is allocated when the table is made; finding, adding and freeing allocate nothing.
/// Lives on the shard's thread.
final class IPv6Peers {
    struct Entry {
        var address = IPv6Address(high: 0, low: 0)
        var port: UInt16 = 0
        var generation: UInt32 = 0
        var inUse = false
        /// Named by ``keep(_:)`` during a reclaim.
        var kept = false
    }

    /// Entries at most: the 15 bits beside ``PeerEndpoint/ipv6Flag``, less one that names
    /// ``unknown``.
    static let maximumCapacity = Int(PeerEndpoint.ipv6Flag) - 1
    /// The endpoint of a datagram from an address that has no entry: no transport is ever routed
    /// to it, so what it brings is dropped as from an unknown source.
    static let unknown = PeerEndpoint(ip: 0, port: 0, connection: PeerEndpoint.ipv6Flag | UInt16(maximumCapacity))

    private(set) var entries: [Entry]
    private var freeEntries: [Int]
    /// Open addressing, linear probing: entry number plus one, 0 for an empty bucket; at least
    /// twice the entries, a power of two.
    private var buckets: [UInt16]
    private let bucketMask: Int
    private let seed: UInt64
    private(set) var count = 0

    init(capacity: Int = IPv6Peers.maximumCapacity, seed: UInt64) {
        let capacity = min(max(1, capacity), Self.maximumCapacity)
        entries = Array(repeating: Entry(), count: capacity)
        freeEntries = Array((0..<capacity).reversed())
        var bucketCount = 2
        while bucketCount < capacity * 2 { bucketCount <<= 1 }
        buckets = Array(repeating: 0, count: bucketCount)
        bucketMask = bucketCount - 1
        self.seed = seed
    }

    var capacity: Int { entries.count }

    @inline(__always)
    private func bucket(of address: IPv6Address, port: UInt16) -> Int {
        // SipHash under the process's random key (and the table's own seed): a sender cannot
        // choose addresses that pile into one run of buckets, as it could against a fixed mix.
        var hasher = Hasher()
        hasher.combine(seed)
        hasher.combine(address.high)
        hasher.combine(address.low)
        hasher.combine(port)
        return hasher.finalize() & bucketMask
    }

    @inline(__always)
    private func endpoint(of index: Int) -> PeerEndpoint {
        PeerEndpoint(ip: entries[index].generation, port: entries[index].port, connection: PeerEndpoint.ipv6Flag | UInt16(index))
    }

    /// The endpoint of a peer that has an entry, else nil.
    func find(_ address: IPv6Address, port: UInt16) -> PeerEndpoint? {
        var bucket = bucket(of: address, port: port)
        while buckets[bucket] != 0 {
            let index = Int(buckets[bucket]) - 1
            if entries[index].port == port, entries[index].address == address { return endpoint(of: index) }
            bucket = (bucket + 1) & bucketMask
        }
        return nil
    }

    /// The buckets a lookup of the peer visits (for tests of the spread).
    func probes(_ address: IPv6Address, port: UInt16) -> Int {
        var bucket = bucket(of: address, port: port)
        var visited = 1
        while buckets[bucket] != 0 {
            let index = Int(buckets[bucket]) - 1
            if entries[index].port == port, entries[index].address == address { return visited }
            bucket = (bucket + 1) & bucketMask
            visited += 1
        }
        return visited
    }

    /// The peer's endpoint, giving it an entry if it has none; nil when every entry is taken.
    func add(_ address: IPv6Address, port: UInt16) -> PeerEndpoint? {
        if let known = find(address, port: port) { return known }
        guard let index = freeEntries.popLast() else { return nil }
        entries[index].address = address
        entries[index].port = port
        entries[index].inUse = true
        count += 1
        var bucket = bucket(of: address, port: port)
        while buckets[bucket] != 0 { bucket = (bucket + 1) & bucketMask }
        buckets[bucket] = UInt16(index + 1)
        return endpoint(of: index)
    }

    /// The address and port an endpoint names, while its entry still holds that peer.
    func peer(of endpoint: PeerEndpoint) -> (address: IPv6Address, port: UInt16)? {
        guard endpoint.isIPv6Datagram else { return nil }
        let index = Int(endpoint.connection & ~PeerEndpoint.ipv6Flag)
        guard index < entries.count, entries[index].inUse, entries[index].generation == endpoint.ip else { return nil }
        return (entries[index].address, entries[index].port)
    }

    /// Starts a reclaim: every entry counts as unused until ``keep(_:)`` names it.
    func beginReclaim() {
        for index in entries.indices { entries[index].kept = false }
    }

    /// Keeps the entry an endpoint names through the reclaim under way (any other endpoint is
    /// passed over).
    func keep(_ endpoint: PeerEndpoint) {
        guard endpoint.isIPv6Datagram else { return }
        let index = Int(endpoint.connection & ~PeerEndpoint.ipv6Flag)
        guard index < entries.count, entries[index].inUse, entries[index].generation == endpoint.ip else { return }
        entries[index].kept = true
    }

    /// Frees every entry in use that ``keep(_:)`` did not name since ``beginReclaim()``, and
    /// says how many it freed. The buckets are built again from the entries kept (no tombstones
    /// to probe past).
    @discardableResult
    func finishReclaim() -> Int {
        var freed = 0
        for index in entries.indices where entries[index].inUse && !entries[index].kept {
            entries[index].inUse = false
            entries[index].generation &+= 1
            freeEntries.append(index)
            freed += 1
        }
        guard freed > 0 else { return 0 }
        count -= freed
        for bucket in buckets.indices { buckets[bucket] = 0 }
        for index in entries.indices where entries[index].inUse {
            var bucket = bucket(of: entries[index].address, port: entries[index].port)
            while buckets[bucket] != 0 { bucket = (bucket + 1) & bucketMask }
            buckets[bucket] = UInt16(index + 1)
        }
        return freed
    }
}
