@_spi(Fuzzing) import MediaPlane

/// One thing the `media` fuzz target does to both of its rigs.
enum MediaFuzzAction {
    /// One read from a transport's socket: its datagrams, from the transport's peer or a stranger.
    case receive([[UInt8]], transport: Int, fromPeer: Bool)
    case change(MediaFuzzChange)
    case advance(milliseconds: Int)
}
