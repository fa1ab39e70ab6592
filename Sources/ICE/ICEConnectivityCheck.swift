public import RTPWire

/// One connectivity check from the controlling side (RFC 8445 section 7.2.2): writes the
/// Binding request and validates the answer.
///
/// The relay's agent is always controlled, so this is what a client, or a test, uses to
/// play the full controlling agent against it. Not meant for the per-packet path: it
/// allocates a little for the username and the integrity check.
public struct ICEConnectivityCheck: Sendable, Hashable {
    /// Identifies the transaction; use a fresh `STUNTransactionID.secureRandom()` per check.
    public var transactionID: STUNTransactionID
    /// The sending (controlling) agent's own ufrag.
    public var localUfrag: String
    /// The peer's credentials; its password keys the request and the answer.
    public var remoteCredentials: ICECredentials
    /// PRIORITY: the priority of a peer-reflexive candidate learnt from this check.
    public var priority: UInt32
    /// The tie-breaker sent in ICE-CONTROLLING; the same for every check of a session.
    public var tieBreaker: UInt64
    /// Whether the check nominates its pair (USE-CANDIDATE).
    public var useCandidate: Bool

    /// Creates a check from known values.
    public init(
        transactionID: STUNTransactionID,
        localUfrag: String,
        remoteCredentials: ICECredentials,
        priority: UInt32,
        tieBreaker: UInt64,
        useCandidate: Bool
    ) {
        self.transactionID = transactionID
        self.localUfrag = localUfrag
        self.remoteCredentials = remoteCredentials
        self.priority = priority
        self.tieBreaker = tieBreaker
        self.useCandidate = useCandidate
    }

    /// The USERNAME of the request: the peer's ufrag, a colon, then ours.
    public var username: String { "\(remoteCredentials.ufrag):\(localUfrag)" }

    /// Writes the Binding request (USERNAME, PRIORITY, ICE-CONTROLLING, optional
    /// USE-CANDIDATE, MESSAGE-INTEGRITY keyed with the peer's password, FINGERPRINT) at the
    /// start of `buffer`.
    ///
    /// - Returns: the request's length, or nil when `buffer` is too short.
    public func writeRequest(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        var writer = STUNMessageWriter(into: buffer, type: .bindingRequest, transactionID: transactionID)
        Array(username.utf8).withUnsafeBytes { writer.append(.username, value: $0) }
        writer.append(.priority, uint32: priority)
        writer.append(.iceControlling, uint64: tieBreaker)
        if useCandidate { writer.appendFlag(.useCandidate) }
        guard let slot = writer.appendIntegrityPlaceholder() else { return nil }
        Array(remoteCredentials.password.utf8).withUnsafeBytes { key in
            STUNMessageIntegrity.sign(slot, in: buffer, key: key)
        }
        writer.appendFingerprint()
        return writer.finish()
    }

    /// The request as a byte array.
    public func request() -> [UInt8] {
        // USERNAME is at most 513 bytes, the other attributes under 80.
        var bytes = [UInt8](repeating: 0, count: 640)
        let length = bytes.withUnsafeMutableBytes { writeRequest(into: $0) }
        return Array(bytes.prefix(length ?? 0))
    }

    /// Judges `packet` as the answer to this check: a Binding response with this
    /// transaction ID, whose MESSAGE-INTEGRITY (required on success, checked on errors when
    /// present) verifies with the peer's password.
    public func readResponse(_ packet: UnsafeRawBufferPointer) -> ICECheckResult {
        let message: STUNMessage
        do throws(STUNParseError) {
            message = try STUNMessage(parsing: packet)
        } catch {
            return .rejected(.malformed(error))
        }
        guard message.type.method == .binding, message.type.messageClass.isResponse else {
            return .rejected(.notABindingResponse)
        }
        guard message.transactionID == transactionID else { return .rejected(.transactionMismatch) }

        if message.integrity != nil {
            guard integrityVerifies(message, in: packet) else { return .rejected(.integrityMismatch) }
        } else if message.type.messageClass == .successResponse {
            return .rejected(.missingIntegrity)
        }

        if message.type.messageClass == .errorResponse {
            guard let code = message.errorCode(in: packet) else { return .rejected(.missingErrorCode) }
            return .errorResponse(code)
        }
        guard let mapped = message.xorMappedAddress(in: packet) else { return .rejected(.missingMappedAddress) }
        return .success(mappedAddress: mapped)
    }

    /// `readResponse(_:)` for a byte array.
    public func readResponse(_ packet: [UInt8]) -> ICECheckResult {
        packet.withUnsafeBytes { readResponse($0) }
    }

    private func integrityVerifies(_ message: STUNMessage, in packet: UnsafeRawBufferPointer) -> Bool {
        var scratch = [UInt8](repeating: 0, count: packet.count)
        return scratch.withUnsafeMutableBytes { scratch in
            Array(remoteCredentials.password.utf8).withUnsafeBytes { key in
                STUNMessageIntegrity.isValid(message, in: packet, key: key, scratch: scratch)
            }
        }
    }
}
