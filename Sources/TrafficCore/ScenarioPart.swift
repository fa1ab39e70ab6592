/// One generator's share of a scenario when several run it together (`--workers`, or `--part`
/// on several hosts): part ``index`` of ``count``.
///
/// Paired scenarios split by PK pair, so a pair's two rooms, its link or forwards and the
/// keyframe watches that time them stay in one generator. fanout keeps its one anchor in part 0
/// and deals the subscribers out in turn.
public struct ScenarioPart: Sendable, Hashable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// The whole scenario.
    public static let whole = ScenarioPart(index: 0, count: 1)!

    /// nil unless `0 <= index < count`.
    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N` (part K of N, counting from 0).
    public init?(_ text: String) {
        let fields = text.split(separator: "/", omittingEmptySubsequences: false)
        guard fields.count == 2, let index = Int(fields[0]), let count = Int(fields[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// The PK pairs (pair p holds rooms 2p and 2p+1) this part runs, of `pairs`.
    public func pairs(of pairs: Int) -> [Int] {
        stride(from: index, to: max(0, pairs), by: count).map { $0 }
    }

    /// The rooms this part runs in a paired scenario with `rooms` rooms, in order.
    public func rooms(of rooms: Int) -> [Int] {
        pairs(of: rooms / 2).flatMap { [2 * $0, 2 * $0 + 1] }
    }

    /// The subscriber numbers (of `subscribers`) this part runs in fanout.
    public func subscribers(of subscribers: Int) -> [Int] {
        stride(from: index, to: max(0, subscribers), by: count).map { $0 }
    }

    /// Whether this part runs fanout's anchor.
    public var runsFanoutAnchor: Bool { index == 0 }

    /// A publisher id unique across parts: the part in the top byte, `number` below.
    public func publisherId(_ number: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: index) << 24 | (number & 0x00FF_FFFF)
    }
}
