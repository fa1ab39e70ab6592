/// Decides a room's active speaker from successive level rankings, with hysteresis: a user
/// becomes the active speaker after being the loudest, at or above `speakingLevel`, for
/// `holdReports` consecutive updates. Silence never clears the speaker; the last one stays.
public struct ActiveSpeakerTracker<Key: Hashable & Sendable>: Sendable {
    /// The quietest level (-dBov) that still counts as speaking.
    public let speakingLevel: UInt8
    public let holdReports: Int
    public private(set) var current: Key?
    private var candidate: Key?
    private var candidateReports = 0

    public init(speakingLevel: UInt8 = 60, holdReports: Int = 2) {
        self.speakingLevel = speakingLevel
        self.holdReports = max(1, holdReports)
    }

    /// Feeds the loudest entry of one update (nil if none); returns the new speaker when it changed.
    public mutating func update(loudest: Key?, level: UInt8) -> Key? {
        guard let loudest, level <= speakingLevel else {
            candidate = nil
            candidateReports = 0
            return nil
        }
        if loudest == current {
            candidate = nil
            candidateReports = 0
            return nil
        }
        if loudest == candidate {
            candidateReports += 1
        } else {
            candidate = loudest
            candidateReports = 1
        }
        guard candidateReports >= holdReports else { return nil }
        current = loudest
        candidate = nil
        candidateReports = 0
        return loudest
    }

    /// Forgets a key that left (so it can become the speaker again later, and is not kept as current).
    public mutating func remove(_ key: Key) {
        if current == key { current = nil }
        if candidate == key {
            candidate = nil
            candidateReports = 0
        }
    }
}
