/// A hint that the cluster changed, sent with PostgreSQL's NOTIFY on ``channel``.
///
/// Notices are never replayed, so a node that reconnects reads the tables again instead of
/// trusting that it saw every notice; they only make reactions quicker.
public enum ClusterNotice: Sendable, Hashable {
    /// A room was placed on a node (or moved to it from a node whose lease ran out).
    case roomPlaced(roomId: String, nodeId: String, epoch: Int64)
    /// A room's placement was released by its node (the room ended).
    case roomReleased(roomId: String, epoch: Int64)
    /// A node left the cluster on purpose (shutdown); a node that dies sends nothing, and the
    /// others see its lease run out instead.
    case nodeLeft(nodeId: String)

    /// The notification channel.
    public static let channel = "pkrelay_cluster"

    /// The payload: space-separated words (ids cannot contain spaces).
    public var payload: String {
        switch self {
        case .roomPlaced(let roomId, let nodeId, let epoch): "placed \(epoch) \(nodeId) \(roomId)"
        case .roomReleased(let roomId, let epoch): "released \(epoch) \(roomId)"
        case .nodeLeft(let nodeId): "left \(nodeId)"
        }
    }

    /// Reads a payload; nil for anything else (a newer node's notice, say).
    public init?(payload: String) {
        let words = payload.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        switch (words.first, words.count) {
        case ("placed", 4):
            guard let epoch = Int64(words[1]) else { return nil }
            self = .roomPlaced(roomId: words[3], nodeId: words[2], epoch: epoch)
        case ("released", 3):
            guard let epoch = Int64(words[1]) else { return nil }
            self = .roomReleased(roomId: words[2], epoch: epoch)
        case ("left", 2):
            self = .nodeLeft(nodeId: words[1])
        default:
            return nil
        }
    }
}
