public import RTPWire

extension ICELiteAgent {
    /// Handles one STUN message that arrived from `source` at time `now`, writing any answer
    /// into `response`.
    ///
    /// In order (RFC 8489 sections 6.3 and 9.1.3, RFC 8445 section 7.3):
    /// - not STUN, a broken header or a wrong FINGERPRINT: dropped, because answering could
    ///   answer something that is not STUN at all;
    /// - indications, responses and methods other than Binding: dropped;
    /// - broken attributes, or USERNAME or MESSAGE-INTEGRITY missing: 400 Bad Request;
    /// - USERNAME not "local-ufrag:remote-ufrag", or MESSAGE-INTEGRITY not keyed with the
    ///   local password: 401 Unauthorized;
    /// - unknown comprehension-required attributes: 420 with UNKNOWN-ATTRIBUTES;
    /// - ICE-CONTROLLED: 487 Role Conflict (see below);
    /// - otherwise a success response with XOR-MAPPED-ADDRESS set to `source`, and the
    ///   check counts: USE-CANDIDATE selects `source`, any valid check from the selected
    ///   address renews consent.
    ///
    /// Error responses after a failed authentication carry no MESSAGE-INTEGRITY, since there
    /// is no shared key to trust; all responses carry FINGERPRINT, as ICE requires.
    ///
    /// A peer that sends ICE-CONTROLLED believes it is controlled too. RFC 8445 section
    /// 7.3.1.1 has the controlled agent answer 487 when its tie-breaker is at least the
    /// peer's and switch roles otherwise; a lite agent can never become controlling (it runs
    /// no checks), so it behaves as if its tie-breaker always wins and answers 487, which
    /// makes a full peer switch to the controlling role and check again.
    ///
    /// Nothing here allocates: the message is parsed as a view over `packet`, `response`
    /// doubles as scratch space for the integrity check before the answer is written into
    /// it, and the HMAC goes into stack storage. `response` must therefore be at least as
    /// long as the request; 1,500 bytes always do for UDP.
    public mutating func handleBindingRequest(
        _ packet: UnsafeRawBufferPointer,
        from source: STUNAddress,
        at now: UInt64,
        response: UnsafeMutableRawBufferPointer
    ) -> ICEBindingOutcome {
        if case .expired = state { return .drop(.agentExpired) }

        let header: STUNMessageHeader
        do throws(STUNParseError) {
            header = try STUNMessageHeader(parsing: packet)
        } catch {
            return .drop(.malformed(error))
        }
        guard header.type.messageClass == .request else { return .drop(.notARequest(header.type.messageClass)) }
        guard header.type.method == .binding else { return .drop(.unsupportedMethod(header.type.method)) }
        let transactionID = header.transactionID

        let message: STUNMessage
        do throws(STUNParseError) {
            message = try STUNMessage(parsing: packet)
        } catch {
            if error == .fingerprintMismatch { return .drop(.malformed(error)) }
            return writeErrorResponse(.badRequest, transactionID: transactionID, into: response)
        }

        guard let username = message.username(in: packet), message.integrity != nil else {
            return writeErrorResponse(.badRequest, transactionID: transactionID, into: response)
        }
        guard usernameIsOurs(username) else {
            return writeErrorResponse(.unauthorized, transactionID: transactionID, into: response)
        }
        guard let signedLength = message.integritySignedLength, response.count >= signedLength else {
            return .drop(.responseBufferTooSmall)
        }
        let integrityVerifies = localPasswordBytes.withUnsafeBytes { key in
            STUNMessageIntegrity.isValid(message, in: packet, key: key, scratch: response)
        }
        guard integrityVerifies else {
            return writeErrorResponse(.unauthorized, transactionID: transactionID, into: response)
        }

        if !message.unknownComprehensionRequired.isEmpty {
            return writeErrorResponse(
                .unknownAttribute, transactionID: transactionID, unknown: message.unknownComprehensionRequired,
                signed: true, into: response)
        }
        if message.iceControlled(in: packet) != nil {
            return writeErrorResponse(.roleConflict, transactionID: transactionID, signed: true, into: response)
        }

        guard let length = writeSuccessResponse(transactionID: transactionID, mappedAddress: source, into: response) else {
            return .drop(.responseBufferTooSmall)
        }
        let event = recordValidCheck(from: source, nominating: message.hasUseCandidate(in: packet), at: now)
        return .respond(length: length, event: event)
    }

    /// Whether USERNAME is "local-ufrag:remote-ufrag", with any remote part accepted while
    /// the peer's ufrag is unknown. Ufrags are public, so a plain comparison will do.
    private func usernameIsOurs(_ username: UnsafeRawBufferPointer) -> Bool {
        let localCount = localUfragBytes.count
        guard username.count > localCount, username[localCount] == UInt8(ascii: ":") else { return false }
        let localMatches = localUfragBytes.withUnsafeBytes { local in
            username.prefix(localCount).elementsEqual(local)
        }
        guard localMatches else { return false }
        guard let remoteUfragBytes else { return true }
        let remotePart = UnsafeRawBufferPointer(rebasing: username[(localCount + 1)...])
        return remoteUfragBytes.withUnsafeBytes { remote in remotePart.elementsEqual(remote) }
    }
}
