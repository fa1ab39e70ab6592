public import RTPWire

/// Why a message received in answer to a connectivity check was not accepted as its answer.
public enum ICECheckRejection: Sendable, Hashable {
    /// Not a well-formed STUN message.
    case malformed(STUNParseError)
    /// Not a Binding success or error response.
    case notABindingResponse
    /// The answer to some other transaction.
    case transactionMismatch
    /// A success response without MESSAGE-INTEGRITY.
    case missingIntegrity
    /// MESSAGE-INTEGRITY does not verify with the peer's password.
    case integrityMismatch
    /// A success response without a usable XOR-MAPPED-ADDRESS.
    case missingMappedAddress
    /// An error response without a usable ERROR-CODE.
    case missingErrorCode
}
