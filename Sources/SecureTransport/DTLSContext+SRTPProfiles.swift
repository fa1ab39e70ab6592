extension DTLSContext {
    /// OpenSSL's name for the DTLS-SRTP protection profile of `profile` (RFC 5764, RFC 7714).
    static func protectionProfileName(_ profile: SRTPProfile) -> String {
        switch profile {
        case .aeadAES128GCM: "SRTP_AEAD_AES_128_GCM"
        case .aesCM128HMACSHA1_80: "SRTP_AES128_CM_SHA1_80"
        }
    }

    /// The profile with IANA DTLS-SRTP protection profile id `identifier`, or `nil` for one
    /// this relay does not implement.
    static func profile(protectionProfileID identifier: UInt) -> SRTPProfile? {
        switch identifier {
        case 0x0001: .aesCM128HMACSHA1_80
        case 0x0007: .aeadAES128GCM
        default: nil
        }
    }
}
