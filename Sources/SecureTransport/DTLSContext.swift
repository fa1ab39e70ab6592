import COpenSSLShims

/// The DTLS configuration shared by every endpoint of a relay: this relay's certificate,
/// DTLS 1.2 only, ciphers and the SRTP profiles to offer.
///
/// Built once and used to create any number of ``DTLSEndpoint``s. The settings follow what
/// WebRTC peers do:
/// - DTLS 1.2 only. Browsers offer DTLS 1.3 and 1.2 in one ClientHello whose legacy version
///   field says 1.2; a 1.2-only server answers with 1.2.
/// - ECDHE with ECDSA certificates and AES-GCM.
/// - The peer must present a certificate, but any certificate is accepted during the
///   handshake: it is authenticated afterwards against the fingerprint from its SDP.
/// - No session tickets, session cache or renegotiation: every association is a full,
///   single handshake.
///
/// Threading: `@unchecked Sendable` because the OpenSSL context is configured completely
/// here and only read afterwards, when endpoints are created from it, which OpenSSL allows
/// from any number of threads.
public final class DTLSContext: @unchecked Sendable {
    /// The SRTP profiles offered by default, most preferred first.
    public static let defaultSRTPProfiles: [SRTPProfile] = [.aeadAES128GCM, .aesCM128HMACSHA1_80]
    /// Cipher suites, most preferred first: ECDSA ones, since that is the key we hold, and
    /// AES-GCM only, which every WebRTC stack offers. Keeping to one record protection lets
    /// the endpoint screen out records too short to be genuine (see
    /// ``DTLSEndpoint/screenRecords(_:)``); with CBC and encrypt-then-MAC, OpenSSL would even
    /// treat every forged record as fatal.
    static let cipherList = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384"
    /// Key exchange groups, most preferred first.
    static let groups = "X25519:P-256:P-384"

    /// The certificate this relay presents.
    public let certificate: DTLSCertificate
    /// The SRTP profiles offered (as client) or accepted (as server), most preferred first.
    /// As a server the first of these that the client offered wins, whatever the client's order.
    public let srtpProfiles: [SRTPProfile]
    /// The OpenSSL context, owned by this object.
    let context: OpaquePointer

    /// Builds the context.
    ///
    /// - Parameters:
    ///   - certificate: The certificate and key to present.
    ///   - srtpProfiles: The SRTP profiles to negotiate, most preferred first; not empty,
    ///     no repeats.
    public init(
        certificate: DTLSCertificate,
        srtpProfiles: [SRTPProfile] = DTLSContext.defaultSRTPProfiles
    ) throws(DTLSError) {
        guard !srtpProfiles.isEmpty, Set(srtpProfiles).count == srtpProfiles.count else {
            throw .invalidSRTPProfiles
        }
        guard let created = pkr_dtls_context_new() else {
            throw .contextSetupFailed(DTLSErrorText.take())
        }
        let profileList = srtpProfiles.map(Self.protectionProfileName).joined(separator: ":")
        guard pkr_dtls_context_use_certificate(created, certificate.certificate, certificate.key) == 1,
            pkr_dtls_context_set_cipher_list(created, Self.cipherList) == 1,
            pkr_dtls_context_set_groups(created, Self.groups) == 1,
            pkr_dtls_context_set_srtp_profiles(created, profileList) == 1,
            pkr_dtls_context_require_any_peer_certificate(created) == 1,
            pkr_dtls_context_disable_extras(created) == 1
        else {
            let explanation = DTLSErrorText.take()
            pkr_dtls_context_free(created)
            throw .contextSetupFailed(explanation)
        }
        self.certificate = certificate
        self.srtpProfiles = srtpProfiles
        self.context = created
    }

    deinit {
        pkr_dtls_context_free(context)
    }
}
