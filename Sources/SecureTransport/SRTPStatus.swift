/// The outcome of protecting or unprotecting one packet.
public enum SRTPStatus: Sendable, Equatable {
    /// The packet was transformed; its new length is valid.
    case ok
    /// The authentication tag did not verify: wrong key, or the packet was altered.
    case authenticationFailed
    /// The packet index was already seen, or is older than the replay window.
    case replayed
    /// The packet is too short, its header is inconsistent, or the buffer cannot take the trailer.
    case malformed
    /// Any other libsrtp failure, with libsrtp's status code.
    case failed(Int32)
}
