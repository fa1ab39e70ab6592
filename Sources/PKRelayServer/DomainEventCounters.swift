import Protocol
import RoomEngine

/// Relay-lifetime counts of what happened in the rooms, taken from the engine's domain events,
/// for /metrics.
struct DomainEventCounters: Sendable {
    var usersJoined: UInt64 = 0
    /// Users who left, by `DepartureReason`.
    var usersLeft: [DepartureReason: UInt64] = [:]
    /// Forward target state changes, by state.
    var forwardStates: [ForwardState: UInt64] = [:]
    var linksConnected: UInt64 = 0
    /// Links ended, by the reason the operator hears.
    var linksEnded: [String: UInt64] = [:]
    /// Invitations ended, by outcome.
    var invitations: [String: UInt64] = [:]

    mutating func count(_ event: DomainEvent) {
        switch event {
        case .userJoined: usersJoined &+= 1
        case .userLeft(_, _, _, let reason): usersLeft[reason, default: 0] &+= 1
        case .forwardStateChanged(let change): forwardStates[change.state, default: 0] &+= 1
        case .linkConnected: linksConnected &+= 1
        case .linkEnded(_, let reason): linksEnded[reason, default: 0] &+= 1
        case .invitationEnded(let outcome): invitations[RelayCore.outcomeName(outcome.state), default: 0] &+= 1
        case .roomCreated, .roomDismissed, .roomEnded, .userRoleChanged, .streamPublished, .streamUnpublished, .firstKeyframe: break
        }
    }
}
