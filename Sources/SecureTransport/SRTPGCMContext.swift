import COpenSSLShims

/// Creates the OpenSSL context shared by ``SRTPGCMSender`` and ``SRTPGCMReceiver``.
enum SRTPGCMContext {
    /// A context from `keyingMaterial` (16-byte master key, then 12-byte master salt), to seal
    /// or to open. The caller owns it and frees it with `pkr_srtp_gcm_destroy`.
    static func create(keyingMaterial: [UInt8], sealing: Bool) throws(SRTPSessionError) -> OpaquePointer {
        let profile = SRTPProfile.aeadAES128GCM
        guard keyingMaterial.count == profile.keyingMaterialLength else {
            throw .invalidKeyingMaterialLength(expected: profile.keyingMaterialLength, actual: keyingMaterial.count)
        }
        let created = keyingMaterial.withUnsafeBufferPointer { bytes in
            pkr_srtp_gcm_create(bytes.baseAddress!, bytes.baseAddress! + profile.masterKeyLength, sealing ? 1 : 0)
        }
        guard let created else { throw .creationFailed(.failed(-1)) }
        return created
    }
}
