/// A change the media plane must make so that packets flow as the rooms say.
public enum MediaAction: Sendable, Hashable {
    /// Accept packets of this track on its transport.
    case addSource(SourceTrack)
    /// Stop accepting the track; every sink bound to it is unbound first by separate actions.
    case removeSource(UInt32)
    /// Create a sink (output state for one subscriber track).
    case addSink(SinkTrack)
    /// Delete a sink and its sequence state.
    case removeSink(UInt32)
    /// Feed a sink from a source; the media plane asks the source for a keyframe (or starts a
    /// WebRTC subscriber's sink from the one it just received).
    case bind(sink: UInt32, source: UInt32)
    /// Move a bound sink to another source (another encoding of the same video) at that
    /// source's next keyframe, which the media plane requests at once; until then the sink stays
    /// on its current source, so the subscriber's stream never pauses. An unbound sink binds.
    case switchSource(sink: UInt32, source: UInt32)
    /// Stop feeding a sink; its sequence state stays for the next bind.
    case unbind(sink: UInt32)
    /// Send a sink's packets with this payload type instead of the publisher's (a WebRTC
    /// subscriber whose offers give the publisher's number to another codec).
    case setSinkPayloadType(sink: UInt32, payloadType: UInt8)
    /// Send a sink's retransmissions on an RFC 4588 stream with this SSRC and payload type, or,
    /// with SSRC 0, again as copies of the original packets.
    case setSinkRetransmission(sink: UInt32, ssrc: UInt32, payloadType: UInt8)
    /// Hold a video sink back until its source's next keyframe (requested now): the subscriber
    /// has just accepted the track and could not place what was sent before.
    case restartSinkAtKeyframe(sink: UInt32)
    /// Close a transport; the actions before this one removed its sinks and sources.
    case closeTransport(Int)
}
