/// One entry of an `a=simulcast` stream list: a rid, possibly marked paused with `~`.
public struct SDPSimulcastStream: Sendable, Hashable {
    /// The rid, which an `a=rid` line of the same section describes.
    public var rid: String
    /// Whether the stream is offered paused (written `~rid`).
    public var isPaused: Bool

    /// Creates an entry.
    public init(rid: String, isPaused: Bool = false) {
        self.rid = rid
        self.isPaused = isPaused
    }

    /// The entry as written in a stream list.
    var sdpValue: String { isPaused ? "~\(rid)" : rid }
}
