import Synchronization

/// One side's index of a ``PacketRing`` and its cached view of the other side's: what that side
/// writes, kept on cache lines of its own (``PacketRing/indexSpacing``) so that the producer's
/// stores never take the consumer's line away from it, and the other way round.
struct PacketRingIndex: ~Copyable {
    /// The side's own position: stored only by its side (release), loaded by the other (acquire).
    let position = Atomic<Int>(0)
    /// The side's last view of the other's position, which it reloads only when it must.
    var otherSeen = 0
}
