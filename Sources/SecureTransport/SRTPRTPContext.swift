import COpenSSLShims

/// Creates the OpenSSL contexts of ``SRTPRTPSealer``, ``SRTPRTPOpener`` and ``SRTCPTransform``.
enum SRTPRTPContext {
    /// A context for `profile` from `keyingMaterial` (16-byte master key, then the profile's
    /// master salt), to seal or to open, with SRTP's session keys or (`rtcp`) SRTCP's. The caller
    /// owns it and frees it with `pkr_srtp_rtp_destroy`.
    static func create(profile: SRTPProfile, keyingMaterial: [UInt8], sealing: Bool, rtcp: Bool = false) throws(SRTPSessionError) -> OpaquePointer {
        guard keyingMaterial.count == profile.keyingMaterialLength else {
            throw .invalidKeyingMaterialLength(expected: profile.keyingMaterialLength, actual: keyingMaterial.count)
        }
        let code: Int32 =
            switch profile {
            case .aeadAES128GCM: PKR_SRTP_RTP_AEAD_AES_128_GCM
            case .aesCM128HMACSHA1_80: PKR_SRTP_RTP_AES_CM_128_HMAC_SHA1_80
            }
        let created = keyingMaterial.withUnsafeBufferPointer { bytes in
            let key = bytes.baseAddress!
            let salt = bytes.baseAddress! + profile.masterKeyLength
            return rtcp ? pkr_srtcp_create(code, key, salt, sealing ? 1 : 0) : pkr_srtp_rtp_create(code, key, salt, sealing ? 1 : 0)
        }
        guard let created else { throw .creationFailed(.failed(-1)) }
        return created
    }
}
