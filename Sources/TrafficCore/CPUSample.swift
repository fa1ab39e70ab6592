/// CPU time read at one moment: the process's and each media thread's, with the monotonic time
/// of the reading (all in microseconds).
public struct CPUSample: Sendable, Hashable {
    public var atMicroseconds: Int64
    public var processMicroseconds: Int64
    /// One entry per media thread, in thread order.
    public var threadMicroseconds: [Int64]

    public init(atMicroseconds: Int64, processMicroseconds: Int64, threadMicroseconds: [Int64]) {
        self.atMicroseconds = atMicroseconds
        self.processMicroseconds = processMicroseconds
        self.threadMicroseconds = threadMicroseconds
    }
}
