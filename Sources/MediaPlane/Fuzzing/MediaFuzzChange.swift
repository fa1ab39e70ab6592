/// What the control plane does to a ``MediaCoreFuzzRig``'s room between receive batches.
/// Subscribers are numbered from 0 and taken modulo their count; layers are 0 (large), 1 (small).
@_spi(Fuzzing) public enum MediaFuzzChange: Sendable, Hashable {
    /// The subscriber's video sink moves to the other layer (a simulcast switch).
    case switchLayer(subscriber: Int)
    /// The subscriber's video or audio sink stops receiving.
    case unbind(subscriber: Int, video: Bool)
    /// The subscriber's video sink is bound to a layer, or its audio sink to the audio.
    case bind(subscriber: Int, video: Bool, layer: Int)
    /// The subscriber's video or audio sink is removed, or added back and bound again.
    case toggleSink(subscriber: Int, video: Bool)
    /// A layer (0, 1) or the audio (2) is unpublished, or published again.
    case toggleSource(index: Int)
    /// The control plane asks the publisher for a keyframe of a layer.
    case requestKeyframe(layer: Int)
    /// The subscriber's video sink waits for the next keyframe before it forwards again.
    case restartAtKeyframe(subscriber: Int)
    /// The subscriber's transport is removed and set up again with fresh keys and sinks.
    case reconnect(subscriber: Int)
}
