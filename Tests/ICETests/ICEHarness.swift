import ICE
import RTPWire

/// The cast of the agent tests: the relay's credentials, a browser-like controlling peer,
/// a few addresses, and a way to hand a request to the agent and collect its answer.
enum ICEHarness {
    static let second: UInt64 = 1_000_000_000
    static let relay = ICECredentials(ufrag: "RlyA", password: "relaypassword0123456789+/")
    static let peer = ICECredentials(ufrag: "PeerUfrag1", password: "peerpassword0123456789ABCD")
    static let tieBreaker: UInt64 = 0x0F1E_2D3C_4B5A_6978

    static let wifi = STUNAddress(ipv4: 0xC0A8_0117, port: 50_000)
    static let cellular = STUNAddress(ipv4: 0x0A40_0002, port: 61_000)
    static let ipv6 = STUNAddress(ipv6High: 0x2001_0DB8_0000_0042, low: 0x0000_0000_0000_0007, port: 40_404)

    /// An agent for the relay side, made at time `createdAt`.
    static func agent(knowsPeer: Bool = true, timeouts: ICETimeouts = ICETimeouts(), createdAt: UInt64 = 0) -> ICELiteAgent {
        ICELiteAgent(localCredentials: relay, remoteCredentials: knowsPeer ? peer : nil, timeouts: timeouts, createdAt: createdAt)
    }

    /// A check from the peer; `number` makes the transaction ID, so each check differs.
    static func check(
        _ number: UInt64,
        useCandidate: Bool = false,
        localUfrag: String = peer.ufrag,
        remote: ICECredentials = relay
    ) -> ICEConnectivityCheck {
        ICEConnectivityCheck(
            transactionID: STUNTransactionID(high: 0xC0FF_EE00, low: number),
            localUfrag: localUfrag,
            remoteCredentials: remote,
            priority: 0x6E7F_1EFF,
            tieBreaker: tieBreaker,
            useCandidate: useCandidate)
    }

    /// Hands `request` to `agent` as if it came from `source` at `time`; returns the outcome
    /// and the bytes the agent wrote as its answer (empty when it dropped the request).
    static func deliver(
        _ request: [UInt8],
        to agent: inout ICELiteAgent,
        from source: STUNAddress,
        at time: UInt64,
        responseCapacity: Int = 1500
    ) -> (outcome: ICEBindingOutcome, response: [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: responseCapacity)
        let outcome = request.withUnsafeBytes { packet in
            buffer.withUnsafeMutableBytes { response in
                agent.handleBindingRequest(packet, from: source, at: time, response: response)
            }
        }
        switch outcome {
        case .respond(let length, _), .respondError(let length, _):
            return (outcome, Array(buffer.prefix(length)))
        case .drop:
            return (outcome, [])
        }
    }

    /// Sends `check` to `agent` and judges the answer with the check's own validation.
    static func run(
        _ check: ICEConnectivityCheck,
        on agent: inout ICELiteAgent,
        from source: STUNAddress,
        at time: UInt64
    ) -> (outcome: ICEBindingOutcome, result: ICECheckResult?) {
        let (outcome, response) = deliver(check.request(), to: &agent, from: source, at: time)
        return (outcome, response.isEmpty ? nil : check.readResponse(response))
    }

    /// A Binding request built attribute by attribute, for the cases the check writer will
    /// not produce; signed with `password` and fingerprinted when asked.
    static func request(
        type: STUNMessageType = .bindingRequest,
        transactionID: STUNTransactionID = STUNTransactionID(high: 1, low: 2),
        username: String?,
        iceControlled: UInt64? = nil,
        extra: STUNAttributeType? = nil,
        signWith password: String?,
        fingerprint: Bool = true
    ) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 512)
        let length = buffer.withUnsafeMutableBytes { raw -> Int? in
            var writer = STUNMessageWriter(into: raw, type: type, transactionID: transactionID)
            if let username { Array(username.utf8).withUnsafeBytes { writer.append(.username, value: $0) } }
            writer.append(.priority, uint32: 0x6E7F_1EFF)
            if let iceControlled {
                writer.append(.iceControlled, uint64: iceControlled)
            } else {
                writer.append(.iceControlling, uint64: tieBreaker)
            }
            if let extra { writer.appendFlag(extra) }
            if let password, let slot = writer.appendIntegrityPlaceholder() {
                Array(password.utf8).withUnsafeBytes { STUNMessageIntegrity.sign(slot, in: raw, key: $0) }
            }
            if fingerprint { writer.appendFingerprint() }
            return writer.finish()
        }
        return Array(buffer.prefix(length ?? 0))
    }

    /// Parses a response the agent wrote; nil if it is not well formed.
    static func parse(_ bytes: [UInt8]) -> STUNMessage? {
        bytes.withUnsafeBytes { try? STUNMessage(parsing: $0) }
    }
}
