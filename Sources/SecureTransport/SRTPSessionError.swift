/// Why an ``SRTPSession`` could not be created.
public enum SRTPSessionError: Error, Sendable, Equatable {
    /// The keying material does not have the profile's master key plus master salt length.
    case invalidKeyingMaterialLength(expected: Int, actual: Int)
    /// The replay window size is outside what libsrtp accepts (64 through 32767 packets).
    case replayWindowSizeOutOfRange(Int)
    /// libsrtp failed to initialise (its cipher self-tests failed).
    case srtpInitializationFailed(SRTPStatus)
    /// libsrtp refused to create the session.
    case creationFailed(SRTPStatus)
}
