import CSocketShims
import Synchronization

extension MediaPlane {
    public func addSource(_ spec: MediaSourceSpec) { apply([.addSource(spec)]) }
    public func removeSource(id: UInt32) { apply([.removeSource(id)]) }
    public func addSink(_ spec: MediaSinkSpec) { apply([.addSink(spec)]) }
    public func removeSink(id: UInt32) { apply([.removeSink(id)]) }
    /// Feeds a sink from a source, on whatever shards they live.
    public func bind(sink: UInt32, source: UInt32) { apply([.bind(sink: sink, source: source)]) }
    /// Moves a bound video sink to `source` at that source's next keyframe (requested at once),
    /// keeping it on its current source until then; an unbound sink binds as with ``bind(sink:source:)``.
    public func switchSource(sink: UInt32, source: UInt32) { apply([.switchSource(sink: sink, source: source)]) }
    public func unbind(sink: UInt32) { apply([.unbind(sink: sink)]) }

    /// Closes a transport and frees its port; its sources and sinks go with it, and so do the
    /// copies of its sources on other shards.
    public func closeTransport(id: Int) { apply([.closeTransport(id)]) }

    /// Carries out routing changes in order. The registry works out every shard's commands under
    /// one lock; each shard then gets its commands in one mailbox post (one eventfd wake-up), so
    /// a shard never runs half of an engine outcome between two batches.
    public func apply(_ changes: [MediaChange]) {
        guard !changes.isEmpty else { return }
        var unplacedSockets: [Int32] = []
        let posts: ShardRouting.Posts = registry.withLock { registry in
            var posts: ShardRouting.Posts = []
            for change in changes {
                switch change {
                case .addSource(let spec): posts += registry.routing.addSource(spec)
                case .removeSource(let id): posts += registry.routing.removeSource(id)
                case .addSink(let spec): posts += registry.routing.addSink(spec)
                case .removeSink(let id): posts += registry.routing.removeSink(id)
                case .bind(let sink, let source): posts += registry.routing.bind(sink: sink, source: source, switching: false)
                case .switchSource(let sink, let source): posts += registry.routing.bind(sink: sink, source: source, switching: true)
                case .unbind(let sink): posts += registry.routing.unbind(sink: sink)
                case .setSinkPayloadType(let sink, let payloadType):
                    if let shard = registry.routing.shard(ofSink: sink) { posts.append((shard, .setSinkPayloadType(sink: sink, payloadType: payloadType))) }
                case .setSinkRetransmission(let sink, let ssrc, let payloadType):
                    if let shard = registry.routing.shard(ofSink: sink) {
                        posts.append((shard, .setSinkRetransmission(sink: sink, ssrc: ssrc, payloadType: payloadType)))
                    }
                case .requestKeyframe(let source):
                    if let shard = registry.routing.shard(ofSource: source) { posts.append((shard, .requestKeyframe(source: source))) }
                case .restartSinkAtKeyframe(let sink):
                    if let shard = registry.routing.shard(ofSink: sink) { posts.append((shard, .restartSinkAtKeyframe(sink: sink))) }
                case .closeTransport(let id):
                    posts += Self.closeTransport(id, in: &registry, unplacedSockets: &unplacedSockets)
                }
            }
            return posts
        }
        var byShard = [[MediaCommand]](repeating: [], count: shards.count)
        for (shard, command) in posts where shards.indices.contains(shard) { byShard[shard].append(command) }
        for (shard, commands) in zip(shards, byShard) { shard.mailbox.post(commands) }
        // A transport no shard ever had: its sockets are closed here.
        for fd in unplacedSockets where fd >= 0 { _ = pkr_close(fd) }
    }

    /// Forgets a transport in the registry: the commands for its shard and the shards holding
    /// copies of its sources, or, when no shard ever had it, its sockets to close.
    static func closeTransport(_ id: Int, in registry: inout Registry, unplacedSockets: inout [Int32]) -> ShardRouting.Posts {
        guard let entry = registry.transports.entries.removeValue(forKey: id) else { return [] }
        if !entry.sharesSocket { registry.transports.portsInUse.remove(entry.port) }
        if case .addTransport(_, let fd, _, _, _, let sendFD)? = registry.unplaced.removeValue(forKey: id)?.first {
            unplacedSockets += [sendFD, fd]
            return []
        }
        guard let shard = registry.routing.shard(ofTransport: id) else { return [] }
        return [(shard, .removeTransport(id: id))] + registry.routing.transportClosed(id)
    }

    /// Sends a sink's packets with `payloadType` instead of the publisher's: a WebRTC subscriber
    /// whose SDP gives the publisher's number to another codec gets the codec under a free one.
    public func setSinkPayloadType(sink: UInt32, payloadType: UInt8) { apply([.setSinkPayloadType(sink: sink, payloadType: payloadType)]) }

    /// Sends a sink's retransmissions on an RFC 4588 stream with this SSRC and payload type, or,
    /// with SSRC 0, again as copies of the original packets.
    public func setSinkRetransmission(sink: UInt32, ssrc: UInt32, payloadType: UInt8) {
        apply([.setSinkRetransmission(sink: sink, ssrc: ssrc, payloadType: payloadType)])
    }

    /// Asks a video source's publisher for a keyframe (throttled by its shard).
    public func requestKeyframe(source: UInt32) { apply([.requestKeyframe(source: source)]) }

    /// Holds a video sink back until its source's next keyframe, which is requested now.
    public func restartSinkAtKeyframe(sink: UInt32) { apply([.restartSinkAtKeyframe(sink: sink)]) }
}
