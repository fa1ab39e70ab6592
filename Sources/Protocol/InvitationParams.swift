/// Parameters of `cancelInvitation` and `acceptInvitation`.
public struct InvitationParams: Sendable, Codable, Hashable {
    public var inviteId: String
    public var payload: String?

    public init(inviteId: String, payload: String? = nil) {
        self.inviteId = inviteId
        self.payload = payload
    }
}
