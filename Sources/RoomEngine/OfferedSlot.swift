public import Protocol

/// One section of a subscription offer the client answered: its mid and kind, and whether it
/// carried a track. An inactive section is reused by the next track of its kind.
public struct OfferedSlot: Sendable, Hashable {
    public var mid: String
    public var kind: TrackKind
    public var isActive: Bool

    public init(mid: String, kind: TrackKind, isActive: Bool) {
        self.mid = mid
        self.kind = kind
        self.isActive = isActive
    }
}
