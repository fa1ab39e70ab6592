import RTPWire

extension ICELiteAgent {
    /// Writes a Binding success response: XOR-MAPPED-ADDRESS, MESSAGE-INTEGRITY keyed with
    /// the local password, FINGERPRINT. Returns its length, or nil when it does not fit.
    func writeSuccessResponse(
        transactionID: STUNTransactionID,
        mappedAddress: STUNAddress,
        into response: UnsafeMutableRawBufferPointer
    ) -> Int? {
        var writer = STUNMessageWriter(into: response, type: .bindingSuccessResponse, transactionID: transactionID)
        writer.appendXORAddress(mappedAddress)
        signAndFinish(&writer, in: response)
        return writer.finish()
    }

    /// Writes a Binding error response with `code`, UNKNOWN-ATTRIBUTES when `unknown` is
    /// given, MESSAGE-INTEGRITY when `signed`, and FINGERPRINT.
    func writeErrorResponse(
        _ code: STUNErrorCode,
        transactionID: STUNTransactionID,
        unknown: STUNUnknownAttributes? = nil,
        signed: Bool = false,
        into response: UnsafeMutableRawBufferPointer
    ) -> ICEBindingOutcome {
        var writer = STUNMessageWriter(into: response, type: .bindingErrorResponse, transactionID: transactionID)
        writer.appendErrorCode(code)
        if let unknown { writer.appendUnknownAttributes(unknown) }
        if signed {
            signAndFinish(&writer, in: response)
        } else {
            writer.appendFingerprint()
        }
        guard let length = writer.finish() else { return .drop(.responseBufferTooSmall) }
        return .respondError(length: length, code: code)
    }

    /// Appends MESSAGE-INTEGRITY keyed with the local password, then FINGERPRINT.
    private func signAndFinish(_ writer: inout STUNMessageWriter, in response: UnsafeMutableRawBufferPointer) {
        guard let slot = writer.appendIntegrityPlaceholder() else { return }
        localPasswordBytes.withUnsafeBytes { key in
            STUNMessageIntegrity.sign(slot, in: response, key: key)
        }
        writer.appendFingerprint()
    }
}
