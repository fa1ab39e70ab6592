/// What an impaired link did with a datagram that entered it.
public enum LinkVerdict: Sendable, Equatable {
    /// It waits for the bottleneck; a later advance delivers it.
    case queued
    /// Lost at random.
    case lostAtRandom
    /// Lost in a loss burst.
    case lostInBurst
    /// The queue had no room for it (tail drop).
    case droppedQueueFull
}
