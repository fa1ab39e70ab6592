/// Parameters of `rejectInvitation`: reason `busy` or `active` (declined by the user).
public struct RejectInvitationParams: Sendable, Codable, Hashable {
    public var inviteId: String
    public var reason: String?
    public var payload: String?

    public init(inviteId: String, reason: String? = nil, payload: String? = nil) {
        self.inviteId = inviteId
        self.reason = reason
        self.payload = payload
    }
}
