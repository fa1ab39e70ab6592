/// One routing change the control plane sends the data plane, as part of a batch
/// (``MediaCommands/apply(_:)``): a room engine's outcome becomes one batch, in order.
public enum MediaChange: Sendable, Hashable {
    /// Accept packets of this track on its transport.
    case addSource(MediaSourceSpec)
    /// Stop accepting the track; sinks bound to it are unbound by changes before this one.
    case removeSource(UInt32)
    /// Create a sink (output state for one subscriber track).
    case addSink(MediaSinkSpec)
    /// Delete a sink and its sequence state.
    case removeSink(UInt32)
    /// Feed a sink from a source; the data plane asks the source for a keyframe, or starts a
    /// sink that allows it from the one it just received (``MediaSinkSpec/startsFromRecentKeyframe``).
    case bind(sink: UInt32, source: UInt32)
    /// Move a bound video sink to another source at that source's next keyframe (requested at
    /// once), keeping it on its current source until then.
    case switchSource(sink: UInt32, source: UInt32)
    /// Stop feeding a sink; its sequence state stays for the next bind.
    case unbind(sink: UInt32)
    /// Send a sink's packets with this payload type instead of the publisher's.
    case setSinkPayloadType(sink: UInt32, payloadType: UInt8)
    /// Send a sink's retransmissions on an RFC 4588 stream with this SSRC and payload type, or,
    /// with SSRC 0, again as copies of the original packets.
    case setSinkRetransmission(sink: UInt32, ssrc: UInt32, payloadType: UInt8)
    /// Ask a video source's publisher for a keyframe now (throttled by its shard).
    case requestKeyframe(source: UInt32)
    /// Hold a video sink back until its source's next keyframe, which is requested now: the
    /// subscriber has just learnt of the track and missed what came before.
    case restartSinkAtKeyframe(sink: UInt32)
    /// Close a transport and free its port; its sources and sinks go with it. Changes before
    /// this one in the batch have unbound and removed them already.
    case closeTransport(Int)
}
