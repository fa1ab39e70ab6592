/// Why a DTLS certificate, context or endpoint could not be set up.
///
/// Failures of a handshake in progress are not errors but states: see ``DTLSFailure``.
public enum DTLSError: Error, Sendable, Equatable {
    /// OpenSSL could not generate the key or certificate; OpenSSL's explanation follows.
    case certificateGenerationFailed(String)
    /// OpenSSL refused part of the context's configuration; OpenSSL's explanation follows.
    case contextSetupFailed(String)
    /// The list of SRTP profiles to offer was empty or named a profile twice.
    case invalidSRTPProfiles
    /// No fingerprint to check the peer's certificate against was given.
    case noExpectedFingerprints
    /// The largest datagram size is below what DTLS can work with (256 bytes).
    case maximumDatagramSizeTooSmall(Int)
    /// The retransmission timeouts are not positive, the maximum is below the initial one,
    /// or one exceeds what OpenSSL's timer can hold.
    case invalidRetransmissionTimeouts
    /// OpenSSL could not create the connection; OpenSSL's explanation follows.
    case endpointSetupFailed(String)
}
