/// The sink that feeds one local track into the media pipe to one node, how many mirrors
/// there use it, and whether that node wants its packets now (a subscriber there is bound to it).
struct PipeSink: Sendable, Hashable {
    var sink: SinkTrack
    var users: Int
    var bound = false
}
