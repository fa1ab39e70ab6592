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
    /// Feed a sink from a source; the media plane asks the source for a keyframe.
    case bind(sink: UInt32, source: UInt32)
    /// Stop feeding a sink; its sequence state stays for the next bind.
    case unbind(sink: UInt32)
    /// Ask a video source for a keyframe now (throttled by the media plane).
    case requestKeyframe(source: UInt32)
}
