/// Result of `invite`.
public struct InviteResult: Sendable, Codable, Hashable {
    public var inviteId: String

    public init(inviteId: String) {
        self.inviteId = inviteId
    }
}
