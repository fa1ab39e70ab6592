extension SRTPStatus {
    /// The status of opening a packet on OpenSSL (`pkr_srtp_rtp_open`, `pkr_srtcp_open`), from
    /// their result: the opened length, -1 for a malformed packet or -2 for one that failed
    /// authentication. On `.ok`, `length` becomes the opened length.
    static func opening(_ result: Int, length: inout Int) -> SRTPStatus {
        switch result {
        case -2: return .authenticationFailed
        case ..<0: return .malformed
        default:
            length = result
            return .ok
        }
    }
}
