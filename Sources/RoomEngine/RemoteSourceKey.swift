/// A track arriving over the media pipe from another node: the pipe's transport and its SSRC there.
struct RemoteSourceKey: Sendable, Hashable {
    var transportId: Int
    var ssrc: UInt32
}
