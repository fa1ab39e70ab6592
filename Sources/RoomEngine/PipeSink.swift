/// The sink that feeds one local track into the media pipe to one node, and how many mirrors
/// there use it.
struct PipeSink: Sendable, Hashable {
    var sink: SinkTrack
    var users: Int
}
