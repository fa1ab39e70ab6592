public import RTPWire

/// What a received message means for a connectivity check this side sent.
public enum ICECheckResult: Sendable, Hashable {
    /// The check succeeded; the peer saw it come from `mappedAddress`.
    case success(mappedAddress: STUNAddress)
    /// The peer answered with an error, such as 487 Role Conflict.
    case errorResponse(STUNErrorCode)
    /// The message is not a trustworthy answer to this check.
    case rejected(ICECheckRejection)
}
