/// Which shard owns each transport, source and sink, and what a routing change must post to
/// which shard: a subscriber on another shard than its source gets a remote copy of the source
/// there, fed through a pipe, shared by every subscriber of that shard and removed with the last.
/// The link between two shards (a pair of rings, about 3.3 MB) is made with the first copy that
/// crosses it, either way, and let go with the last.
///
/// A value owned by the media plane's control side; every change returns the commands to post,
/// in order, so the rules are tested without threads.
struct ShardRouting: Sendable {
    typealias Posts = [(shard: Int, command: MediaCommand)]

    let shardCount: Int
    /// Slots of each pipe ring between two shards.
    let pipeSlots: Int
    private(set) var transportShard: [Int: Int] = [:]
    private(set) var transportsPerShard: [Int]
    private var sources: [UInt32: (shard: Int, spec: MediaSourceSpec)] = [:]
    private var sinkShard: [UInt32: Int] = [:]
    private var sinkTransport: [UInt32: Int] = [:]
    /// The sources whose copies a sink keeps on its shard: its source, and during a layer switch
    /// the one it is leaving.
    private var sinkHolds: [UInt32: [UInt32]] = [:]
    /// Remote copies: source → shard → sinks holding it there.
    private(set) var copies: [UInt32: [Int: Int]] = [:]
    /// Shard pairs joined by a link, smaller index first, with the remote copies that cross it
    /// (either way).
    private(set) var linkCopies: [[Int]: Int] = [:]
    /// Shard pairs joined by a link, smaller index first.
    var linkedPairs: Set<[Int]> { Set(linkCopies.keys) }
    /// Placement groups (rooms): the shard their transports go to, how many transports use it,
    /// and how many of those live on that shard (the rest are receiving transports of a room
    /// that outgrew it).
    private(set) var groups: [String: (shard: Int, transports: Int, onShard: Int)] = [:]
    private var transportGroup: [Int: String] = [:]
    /// Transports of one group on its own shard before its receiving transports go to the least
    /// loaded shard; nil never spreads a group.
    let spreadAfter: Int?

    init(shardCount: Int, pipeSlots: Int = 1024, spreadAfter: Int? = nil) {
        self.shardCount = max(1, shardCount)
        self.pipeSlots = pipeSlots
        self.spreadAfter = spreadAfter.map { max(0, $0) }
        transportsPerShard = Array(repeating: 0, count: max(1, shardCount))
    }

    // MARK: Transports

    /// Chooses a new transport's shard: its group's, or the least loaded one (which then becomes
    /// the group's). A `receiving` transport (one that only subscribes) of a group that already
    /// has `spreadAfter` transports on its shard goes to the least loaded shard instead, the
    /// group's own on a tie: a popular room's audience spreads over every shard, fed by one
    /// copy of each watched track per shard, while small rooms, and every room's publishers,
    /// stay on one.
    mutating func placeTransport(_ id: Int, group: String?, receiving: Bool = false) -> Int {
        let shard: Int
        if let group, let placed = groups[group] {
            let spreads = receiving && spreadAfter.map { placed.onShard >= $0 } == true
            shard = spreads ? leastLoadedShard(preferring: placed.shard) : placed.shard
        } else {
            shard = leastLoadedShard(preferring: nil)
        }
        if let group { join(group, transport: id, on: shard) }
        transportShard[id] = shard
        transportsPerShard[shard] += 1
        return shard
    }

    /// The shard with the fewest transports; `preferred` when it ties for fewest.
    private func leastLoadedShard(preferring preferred: Int?) -> Int {
        let fewest = transportsPerShard.indices.min { transportsPerShard[$0] < transportsPerShard[$1] } ?? 0
        if let preferred, transportsPerShard[preferred] == transportsPerShard[fewest] { return preferred }
        return fewest
    }

    func shard(ofTransport id: Int) -> Int? { transportShard[id] }

    /// A transport placed without a group (a WebRTC transport opened before its session joined
    /// a room) joins `group`: a group without a shard yet takes the transport's, so the room's
    /// later transports follow it; a group already elsewhere leaves it where it is (its port is
    /// in the client's SDP), reached through the pipes. Returns whether it joined.
    @discardableResult
    mutating func adopt(_ id: Int, group: String) -> Bool {
        guard let shard = transportShard[id], transportGroup[id] == nil else { return false }
        if let placed = groups[group], placed.shard != shard { return false }
        join(group, transport: id, on: shard)
        return true
    }

    /// Counts transport `id`, on `shard`, into `group`; a group without a shard takes it.
    private mutating func join(_ group: String, transport id: Int, on shard: Int) {
        var placed = groups[group] ?? (shard, 0, 0)
        placed.transports += 1
        if shard == placed.shard { placed.onShard += 1 }
        groups[group] = placed
        transportGroup[id] = group
    }

    /// A transport closed (its shard's core drops its sources and sinks itself): remote copies of
    /// its sources go, and its sinks let go of theirs.
    mutating func transportClosed(_ id: Int) -> Posts {
        guard let shard = transportShard.removeValue(forKey: id) else { return [] }
        transportsPerShard[shard] -= 1
        if let group = transportGroup.removeValue(forKey: id), var placed = groups[group] {
            placed.transports -= 1
            if shard == placed.shard { placed.onShard -= 1 }
            groups[group] = placed.transports > 0 ? placed : nil
        }
        var posts: Posts = []
        for (sourceId, source) in sources where source.spec.transportId == id {
            posts += removeSource(sourceId)
        }
        for (sinkId, transport) in sinkTransport where transport == id {
            posts += releaseHolds(of: sinkId, keeping: nil)
            sinkShard[sinkId] = nil
            sinkTransport[sinkId] = nil
            sinkHolds[sinkId] = nil
        }
        return posts
    }

    // MARK: Sources and sinks

    mutating func addSource(_ spec: MediaSourceSpec) -> Posts {
        guard let shard = transportShard[spec.transportId] else { return [] }
        sources[spec.id] = (shard, spec)
        return [(shard, .addSource(spec))]
    }

    func shard(ofSource id: UInt32) -> Int? { sources[id]?.shard }

    /// Removes a source and every remote copy of it; sinks that held it keep waiting for a bind.
    mutating func removeSource(_ id: UInt32) -> Posts {
        guard let source = sources.removeValue(forKey: id) else { return [] }
        var posts: Posts = [(source.shard, .removeSource(id: id))]
        let copyShards = (copies.removeValue(forKey: id) ?? [:]).keys.sorted()
        for shard in copyShards {
            posts.append((shard, .removeSource(id: id)))
        }
        // Links go after the remote sources that arrived over them.
        for shard in copyShards { posts += unlink(source.shard, shard) }
        for (sink, holds) in sinkHolds where holds.contains(id) {
            sinkHolds[sink] = holds.filter { $0 != id }
        }
        return posts
    }

    mutating func addSink(_ spec: MediaSinkSpec) -> Posts {
        guard let shard = transportShard[spec.transportId] else { return [] }
        sinkShard[spec.id] = shard
        sinkTransport[spec.id] = spec.transportId
        return [(shard, .addSink(spec))]
    }

    func shard(ofSink id: UInt32) -> Int? { sinkShard[id] }

    mutating func removeSink(_ id: UInt32) -> Posts {
        guard let shard = sinkShard[id] else { return [] }
        var posts: Posts = [(shard, .removeSink(id: id))]
        posts += releaseHolds(of: id, keeping: nil)
        sinkShard[id] = nil
        sinkTransport[id] = nil
        sinkHolds[id] = nil
        return posts
    }

    /// Feeds a sink from a source (`switching`: at that source's next keyframe, keeping the
    /// current one until then), through a remote copy when they live on different shards.
    mutating func bind(sink: UInt32, source: UInt32, switching: Bool) -> Posts {
        guard let shard = sinkShard[sink], sources[source] != nil else { return [] }
        var posts = acquire(source, on: shard)
        posts.append((shard, switching ? .switchSource(sink: sink, source: source) : .bind(sink: sink, source: source)))
        var holds = sinkHolds[sink] ?? []
        if !holds.contains(source) { holds.append(source) }
        sinkHolds[sink] = holds
        // A bind lets go of everything else; a switch keeps the source it is leaving.
        let keep: Set<UInt32> = switching ? Set(holds.suffix(2)) : [source]
        posts += releaseHolds(of: sink, keeping: keep)
        return posts
    }

    mutating func unbind(sink: UInt32) -> Posts {
        guard let shard = sinkShard[sink] else { return [] }
        return [(shard, .unbind(sink: sink))] + releaseHolds(of: sink, keeping: nil)
    }

    // MARK: Remote copies

    private mutating func acquire(_ sourceId: UInt32, on shard: Int) -> Posts {
        guard let source = sources[sourceId], source.shard != shard else { return [] }
        var posts: Posts = []
        let holders = copies[sourceId]?[shard] ?? 0
        if holders == 0 {
            posts += link(source.shard, shard)
            posts.append((shard, .addRemoteSource(source.spec, peer: source.shard)))
            posts.append((source.shard, .addPipeOutlet(source: sourceId, peer: shard)))
        }
        copies[sourceId, default: [:]][shard] = holders + 1
        return posts
    }

    private mutating func release(_ sourceId: UInt32, on shard: Int) -> Posts {
        guard let source = sources[sourceId], source.shard != shard, let holders = copies[sourceId]?[shard] else { return [] }
        if holders > 1 {
            copies[sourceId]![shard] = holders - 1
            return []
        }
        copies[sourceId]![shard] = nil
        if copies[sourceId]!.isEmpty { copies[sourceId] = nil }
        return [(source.shard, .removePipeOutlet(source: sourceId, peer: shard)), (shard, .removeSource(id: sourceId))] + unlink(source.shard, shard)
    }

    private mutating func releaseHolds(of sink: UInt32, keeping: Set<UInt32>?) -> Posts {
        guard let shard = sinkShard[sink] else { return [] }
        var posts: Posts = []
        var kept: [UInt32] = []
        for source in sinkHolds[sink] ?? [] {
            if keeping?.contains(source) == true {
                kept.append(source)
            } else {
                posts += release(source, on: shard)
            }
        }
        sinkHolds[sink] = kept
        return posts
    }

    /// Counts one more copy across two shards, joining them with a pair of rings for the first.
    private mutating func link(_ first: Int, _ second: Int) -> Posts {
        let pair = [min(first, second), max(first, second)]
        let crossing = linkCopies[pair] ?? 0
        linkCopies[pair] = crossing + 1
        guard crossing == 0 else { return [] }
        let forward = PacketRing(slotCount: pipeSlots, slotCapacity: MediaCore.sendSlotCapacity)
        let backward = PacketRing(slotCount: pipeSlots, slotCapacity: MediaCore.sendSlotCapacity)
        return [
            (first, .addLink(PipeLinkHandoff(link: PipeLink(peer: second, outbound: forward, inbound: backward)))),
            (second, .addLink(PipeLinkHandoff(link: PipeLink(peer: first, outbound: backward, inbound: forward)))),
        ]
    }

    /// Counts one copy less across two shards; with the last, both ends let go of their link,
    /// and its rings are freed with the second. Each shard applies its commands in order, so a
    /// link is gone at both ends before a new one between them arrives.
    private mutating func unlink(_ first: Int, _ second: Int) -> Posts {
        let pair = [min(first, second), max(first, second)]
        guard let crossing = linkCopies[pair] else { return [] }
        guard crossing <= 1 else {
            linkCopies[pair] = crossing - 1
            return []
        }
        linkCopies[pair] = nil
        return [(pair[0], .removeLink(peer: pair[1])), (pair[1], .removeLink(peer: pair[0]))]
    }
}
