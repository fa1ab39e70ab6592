/// What the node a mirror comes from last sent for it: the pipe its tracks arrive on and its
/// streams, before this room's link mute mask hides any.
struct RemoteMirrorStreams: Sendable, Hashable {
    var pipeTransportId: Int
    var publications: [RemotePublication]
}
