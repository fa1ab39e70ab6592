import Testing

@testable import MediaPlane

/// The per-shard table of IPv6 peers: endpoints that route as 64-bit keys, a full table that
/// frees only unused entries, and generations that keep a freed entry's old endpoints from
/// naming its next peer.
@Suite struct IPv6PeersTests {
    static func address(_ n: UInt64) -> IPv6Address { IPv6Address(high: 0x2001_0DB8_0000_0000, low: n) }

    @Test("a peer gets one entry, found again by address and port; another port is another peer")
    func addAndFind() throws {
        let peers = IPv6Peers(capacity: 8, seed: 42)
        let first = try #require(peers.add(Self.address(1), port: 5000))
        #expect(first.isIPv6Datagram && !first.isStream)
        #expect(peers.add(Self.address(1), port: 5000) == first && peers.find(Self.address(1), port: 5000) == first)
        let other = try #require(peers.add(Self.address(1), port: 5001))
        #expect(other != first && other.key != first.key)
        #expect(peers.find(Self.address(2), port: 5000) == nil)
        #expect(peers.peer(of: first)?.address == Self.address(1) && peers.peer(of: first)?.port == 5000)
        #expect(peers.count == 2)
        #expect(peers.peer(of: IPv6Peers.unknown) == nil && peers.peer(of: PeerEndpoint(ip: 0x7F00_0001, port: 5000)) == nil)
    }

    @Test("a full table adds nothing until reclaimed; reclaiming keeps the entries in use and frees the rest, whose old endpoints then name nobody")
    func fullTableAndReclaim() throws {
        let peers = IPv6Peers(capacity: 4, seed: 7)
        let endpoints = try (1...4).map { try #require(peers.add(Self.address($0), port: 9)) }
        #expect(peers.add(Self.address(5), port: 9) == nil)
        peers.beginReclaim()
        peers.keep(endpoints[1])
        peers.keep(endpoints[3])
        // Endpoints that name no live entry change nothing.
        peers.keep(IPv6Peers.unknown)
        peers.keep(PeerEndpoint(ip: endpoints[0].ip &+ 1, port: 9, connection: endpoints[0].connection))
        #expect(peers.finishReclaim() == 2)
        #expect(peers.count == 2)
        // Kept entries are still found (the buckets were built again) and still route.
        #expect(peers.find(Self.address(2), port: 9) == endpoints[1] && peers.find(Self.address(4), port: 9) == endpoints[3])
        #expect(peers.find(Self.address(1), port: 9) == nil)
        // A newcomer takes a freed entry under a new generation: the old endpoint is stale.
        let newcomer = try #require(peers.add(Self.address(5), port: 9))
        let reused = [endpoints[0], endpoints[2]].first { $0.connection == newcomer.connection }
        #expect(reused != nil && reused != newcomer)
        if let reused { #expect(peers.peer(of: reused) == nil) }
        #expect(peers.peer(of: newcomer)?.address == Self.address(5))
    }

    @Test("thousands of peers with colliding halves all stay findable")
    func manyPeers() throws {
        let peers = IPv6Peers(capacity: 5000, seed: 3)
        var endpoints: [PeerEndpoint] = []
        for n in 0..<5000 { endpoints.append(try #require(peers.add(IPv6Address(high: UInt64(n % 7), low: UInt64(n / 7)), port: UInt16(n % 3)))) }
        #expect(Set(endpoints.map(\.key)).count == 5000)
        for n in stride(from: 0, to: 5000, by: 97) {
            #expect(peers.find(IPv6Address(high: UInt64(n % 7), low: UInt64(n / 7)), port: UInt16(n % 3)) == endpoints[n])
        }
        #expect(IPv6Peers(capacity: 1 << 20, seed: 1).capacity == IPv6Peers.maximumCapacity)
    }

    @Test("addresses a sender picks in one /64 spread over the buckets: no lookup walks a long run")
    func chosenAddressesDoNotCluster() throws {
        let peers = IPv6Peers(seed: 99)
        let prefix: UInt64 = 0x2001_0DB8_0000_0001
        // Low halves a fixed multiply-xorshift mapped to one bucket, and plain counting.
        let lows = (0..<16_000).map { UInt64($0) << 32 } + (1...16_000).map { UInt64($0) }
        for low in lows { _ = try #require(peers.add(IPv6Address(high: prefix, low: low), port: 5000)) }
        let longest = lows.map { peers.probes(IPv6Address(high: prefix, low: $0), port: 5000) }.max() ?? 0
        #expect(longest < 64, "longest probe \(longest)")
    }
}
