/// Why a DTLS association failed, as a code that stays the same across releases.
public enum DTLSFailureReason: String, Sendable, Hashable, CaseIterable {
    /// The peer's certificate matches none of the fingerprints from its SDP.
    case fingerprintMismatch = "dtls_fingerprint_mismatch"
    /// The handshake broke off: a fatal alert was sent or received, or a message was invalid.
    case handshakeFailure = "dtls_handshake_failure"
    /// The handshake completed without an SRTP profile both sides support.
    case noSRTPProfile = "dtls_no_srtp_profile"
    /// The peer stopped answering: the last flight was retransmitted as often as allowed.
    case timeout = "dtls_timeout"
    /// An established association broke: a fatal alert was sent or received.
    case protocolError = "dtls_protocol_error"
}
