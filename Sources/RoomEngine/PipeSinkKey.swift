/// A local track as sent over the media pipe to one node: crossing once per node however many
/// rooms there show it.
struct PipeSinkKey: Sendable, Hashable {
    var node: String
    var trackId: UInt32
}
