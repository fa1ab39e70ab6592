/// A media section of a publish offer the relay answered with port 0.
public struct RejectedSection: Sendable, Hashable, CustomStringConvertible {
    /// The position of the section among the `m=` lines, from 0.
    public var index: Int
    /// The section's mid, when it has one.
    public var mid: String?
    /// The media kind.
    public var kind: SDPMediaKind
    /// Why it was rejected.
    public var reason: SectionRejectionReason

    /// Creates the record.
    public init(index: Int, mid: String?, kind: SDPMediaKind, reason: SectionRejectionReason) {
        self.index = index
        self.mid = mid
        self.kind = kind
        self.reason = reason
    }

    /// The section and the reason, for error messages.
    public var description: String {
        "section \(index) (\(kind)\(mid.map { ", mid '\($0)'" } ?? "")): \(reason)"
    }
}
