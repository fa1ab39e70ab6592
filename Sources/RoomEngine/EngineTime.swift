import Protocol

/// A point in time in Unix milliseconds, passed into every engine call so that tests script time.
public struct EngineTime: Sendable, Hashable, Comparable {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The time in whole Unix seconds.
    public var seconds: Int64 { milliseconds / 1000 }

    public static func < (lhs: EngineTime, rhs: EngineTime) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// This time shifted by `milliseconds`.
    public func adding(milliseconds delta: Int64) -> EngineTime { EngineTime(milliseconds: milliseconds.saturatingAdding(delta)) }

    /// A time given in Unix seconds; times beyond the representable range stop at its bounds.
    public init(seconds: Int64) { self.init(milliseconds: seconds.saturatingMultiplied(by: 1000)) }
}
