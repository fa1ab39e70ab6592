import COpenSSLShims

/// Creates the OpenSSL context shared by ``SRTPRTPSealer`` and ``SRTPRTPOpener``.
enum SRTPRTPContext {
    /// A context for `profile` from `keyingMaterial` (16-byte master key, then the profile's
    /// master salt), to seal or to open. The caller owns it and frees it with
    /// `pkr_srtp_rtp_destroy`.
    static func create(profile: SRTPProfile, keyingMaterial: [UInt8], sealing: Bool) throws(SRTPSessionError) -> OpaquePointer {
        guard keyingMaterial.count == profile.keyingMaterialLength else {
            throw .invalidKeyingMaterialLength(expected: profile.keyingMaterialLength, actual: keyingMaterial.count)
        }
        let code: Int32 = switch profile {
        case .aeadAES128GCM: PKR_SRTP_RTP_AEAD_AES_128_GCM
        case .aesCM128HMACSHA1_80: PKR_SRTP_RTP_AES_CM_128_HMAC_SHA1_80
        }
        let created = keyingMaterial.withUnsafeBufferPointer { bytes in
            pkr_srtp_rtp_create(code, bytes.baseAddress!, bytes.baseAddress! + profile.masterKeyLength, sealing ? 1 : 0)
        }
        guard let created else { throw .creationFailed(.failed(-1)) }
        return created
    }
}
