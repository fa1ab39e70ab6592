/// One room: its members in joining order.
struct Room: Sendable, Hashable {
    var id: String
    var order: [String] = []
    var members: [String: Member] = [:]

    var visibleCount: Int { members.values.filter(\.visible).count }
    var publisherCount: Int { members.values.filter { !$0.publications.isEmpty }.count }

    /// Members in joining order, for deterministic event order.
    var orderedMembers: [Member] { order.compactMap { members[$0] } }

    mutating func insert(_ member: Member) {
        if members[member.userId] == nil { order.append(member.userId) }
        members[member.userId] = member
    }

    mutating func remove(_ userId: String) {
        members[userId] = nil
        order.removeAll { $0 == userId }
    }
}
