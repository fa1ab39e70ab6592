import COpenSSLShims

extension DTLSEndpoint {
    /// Drives the handshake with whatever input is pending; on completion checks the peer
    /// and derives the keys.
    func advanceHandshake() {
        switch pkr_dtls_handshake(connection) {
        case PKR_DTLS_DONE:
            completeHandshake()
            if case .connected = state {
                // The datagram that completed the handshake may carry more records.
                readRecords()
            }
        case PKR_DTLS_WANT_INPUT:
            break
        case PKR_DTLS_CLOSED:
            transition(to: .closed)
        case PKR_DTLS_TIMED_OUT:
            // OpenSSL retransmits by itself when input finds the timer expired, and can give
            // up there too.
            fail(.timeout)
        default:
            fail(.handshakeFailure)
        }
    }

    /// Processes records after the handshake: OpenSSL answers a peer's retransmitted final
    /// flight here and notices alerts. Application data is dropped: this endpoint carries
    /// only keying.
    func readRecords() {
        for _ in 0..<Self.maximumReadsPerDatagram {
            var count = 0
            let outcome = readBuffer.withUnsafeMutableBufferPointer { buffer in
                pkr_dtls_read(connection, buffer.baseAddress, buffer.count, &count)
            }
            switch outcome {
            case PKR_DTLS_DONE:
                continue
            case PKR_DTLS_WANT_INPUT:
                return
            case PKR_DTLS_CLOSED:
                // Answer close_notify with close_notify, as TLS asks (RFC 5246 section 7.2.1).
                _ = pkr_dtls_shutdown(connection)
                transition(to: .closed)
                return
            default:
                fail(.protocolError)
                return
            }
        }
    }

    /// Checks the finished handshake and moves to connected, or fails.
    ///
    /// A peer that fails the checks is sent close_notify, so it stops waiting for media
    /// rather than timing out.
    private func completeHandshake() {
        guard let certificate = peerCertificateDER() else {
            fail(.handshakeFailure)
            return
        }
        peerFingerprint = DTLSFingerprint(algorithm: .sha256, certificateDER: certificate)
        guard expectedPeerFingerprints.contains(where: { $0.matches(certificateDER: certificate) }) else {
            _ = pkr_dtls_shutdown(connection)
            fail(.fingerprintMismatch)
            return
        }
        let profileID = pkr_dtls_selected_srtp_profile(connection)
        guard let profile = DTLSContext.profile(protectionProfileID: profileID) else {
            _ = pkr_dtls_shutdown(connection)
            fail(.noSRTPProfile)
            return
        }
        guard let keys = exportKeys(for: profile) else {
            fail(.handshakeFailure)
            return
        }
        transition(to: .connected(keys))
    }

    /// The DER encoding of the peer's certificate.
    private func peerCertificateDER() -> [UInt8]? {
        var length = 0
        guard pkr_dtls_peer_certificate_der(connection, nil, 0, &length) == 1, length > 0 else {
            return nil
        }
        var succeeded = false
        let encoded = [UInt8](unsafeUninitializedCapacity: length) { buffer, initializedCount in
            var written = 0
            succeeded =
                pkr_dtls_peer_certificate_der(connection, buffer.baseAddress, length, &written) == 1
                && written == length
            initializedCount = succeeded ? written : 0
        }
        return succeeded ? encoded : nil
    }

    /// Runs the DTLS-SRTP exporter and splits its output by direction.
    private func exportKeys(for profile: SRTPProfile) -> DTLSSRTPKeys? {
        let length = 2 * profile.keyingMaterialLength
        var succeeded = false
        let material = [UInt8](unsafeUninitializedCapacity: length) { buffer, initializedCount in
            succeeded =
                pkr_dtls_export_keying_material(
                    connection, Self.exporterLabel, buffer.baseAddress, length) == 1
            initializedCount = succeeded ? length : 0
        }
        guard succeeded else { return nil }
        return DTLSSRTPKeys(profile: profile, exportedMaterial: material, role: role)
    }

    /// Moves to failed with `reason` and whatever OpenSSL recorded about the failure.
    func fail(_ reason: DTLSFailureReason) {
        var sent = PKR_DTLS_NO_ALERT
        var received = PKR_DTLS_NO_ALERT
        _ = pkr_dtls_fatal_alerts(connection, &sent, &received)
        let failure = DTLSFailure(
            reason: reason,
            sentAlert: sent == PKR_DTLS_NO_ALERT ? nil : UInt8(truncatingIfNeeded: sent),
            receivedAlert: received == PKR_DTLS_NO_ALERT ? nil : UInt8(truncatingIfNeeded: received),
            detail: DTLSErrorText.take())
        transition(to: .failed(failure))
    }
}
