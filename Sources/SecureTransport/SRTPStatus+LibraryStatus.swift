import CSRTP

extension SRTPStatus {
    /// Maps a libsrtp status onto the few outcomes callers act on differently.
    init(libraryStatus status: srtp_err_status_t) {
        switch status.rawValue {
        case srtp_err_status_ok.rawValue:
            self = .ok
        case srtp_err_status_auth_fail.rawValue:
            self = .authenticationFailed
        case srtp_err_status_replay_fail.rawValue, srtp_err_status_replay_old.rawValue:
            self = .replayed
        case srtp_err_status_bad_param.rawValue, srtp_err_status_parse_err.rawValue:
            self = .malformed
        default:
            self = .failed(Int32(truncatingIfNeeded: status.rawValue))
        }
    }
}
