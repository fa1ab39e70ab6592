/// A user's forward of its streams from one room into others (Volcengine model).
struct Forward: Sendable, Hashable {
    var session: SessionID
    var paused = false
    /// Targets in the order they were added.
    var order: [String] = []
    var targets: [String: ForwardTarget] = [:]

    mutating func insert(_ target: ForwardTarget) {
        if targets[target.roomId] == nil { order.append(target.roomId) }
        targets[target.roomId] = target
    }

    mutating func remove(_ roomId: String) {
        targets[roomId] = nil
        order.removeAll { $0 == roomId }
    }
}
