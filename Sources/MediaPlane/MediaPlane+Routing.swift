extension MediaPlane {
    public func addSource(_ spec: MediaSourceSpec) { route { $0.addSource(spec) } }
    public func removeSource(id: UInt32) { route { $0.removeSource(id) } }
    public func addSink(_ spec: MediaSinkSpec) { route { $0.addSink(spec) } }
    public func removeSink(id: UInt32) { route { $0.removeSink(id) } }
    /// Feeds a sink from a source, on whatever shards they live.
    public func bind(sink: UInt32, source: UInt32) { route { $0.bind(sink: sink, source: source, switching: false) } }
    /// Moves a bound video sink to `source` at that source's next keyframe (requested at once),
    /// keeping it on its current source until then; an unbound sink binds as with ``bind(sink:source:)``.
    public func switchSource(sink: UInt32, source: UInt32) { route { $0.bind(sink: sink, source: source, switching: true) } }
    public func unbind(sink: UInt32) { route { $0.unbind(sink: sink) } }

    /// Sends a sink's packets with `payloadType` instead of the publisher's: a WebRTC subscriber
    /// whose SDP gives the publisher's number to another codec gets the codec under a free one.
    public func setSinkPayloadType(sink: UInt32, payloadType: UInt8) {
        postToSink(sink, .setSinkPayloadType(sink: sink, payloadType: payloadType))
    }

    /// Sends a sink's retransmissions on an RFC 4588 stream with this SSRC and payload type, or,
    /// with SSRC 0, again as copies of the original packets.
    public func setSinkRetransmission(sink: UInt32, ssrc: UInt32, payloadType: UInt8) {
        postToSink(sink, .setSinkRetransmission(sink: sink, ssrc: ssrc, payloadType: payloadType))
    }

    /// Asks a video source's publisher for a keyframe (throttled by its shard).
    public func requestKeyframe(source: UInt32) {
        guard let shard = registry.withLock({ $0.routing.shard(ofSource: source) }) else { return }
        shards[shard].mailbox.post(.requestKeyframe(source: source))
    }

    /// Holds a video sink back until its source's next keyframe, which is requested now: the
    /// subscriber has just learnt of the track (a WebRTC answer) and missed what came before.
    public func restartSinkAtKeyframe(sink: UInt32) { postToSink(sink, .restartSinkAtKeyframe(sink: sink)) }

    func postToSink(_ sink: UInt32, _ command: MediaCommand) {
        guard let shard = registry.withLock({ $0.routing.shard(ofSink: sink) }) else { return }
        shards[shard].mailbox.post(command)
    }
}
