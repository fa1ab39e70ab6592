/// Invitation states (Agora RTM call-invitation numbers).
public enum InvitationState: Int, Sendable, Codable, Hashable {
    case idle = 0
    case sentToRemote = 1
    case receivedByRemote = 2
    case accepted = 3
    case refused = 4
    case canceled = 5
    case failure = 6
}
