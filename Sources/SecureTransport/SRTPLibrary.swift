import CSRTP

/// Process-wide setup of the SRTP library.
public enum SRTPLibrary {
    /// Initialises libsrtp once per process. Safe to call from any number of threads, any
    /// number of times; every call after the first returns the first call's outcome.
    ///
    /// ``SRTPSession`` calls this itself, so calling it early only moves the one-off cost
    /// (libsrtp runs its cipher self-tests) out of the first session's creation.
    @discardableResult
    public static func initialize() -> SRTPStatus {
        SRTPStatus(libraryStatus: pkr_srtp_initialize())
    }
}
