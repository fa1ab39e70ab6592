import Protocol

/// A user's stream, the unit volume reports rank.
struct SpeakerKey: Hashable, Comparable, Sendable {
    var userId: String
    var streamIndex: StreamIndex

    static func < (lhs: SpeakerKey, rhs: SpeakerKey) -> Bool {
        (lhs.userId, lhs.streamIndex.rawValue) < (rhs.userId, rhs.streamIndex.rawValue)
    }
}
