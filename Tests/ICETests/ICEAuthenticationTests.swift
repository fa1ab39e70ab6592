import ICE
import RTPWire
import Testing

@Suite("ICE-lite agent: rejected requests")
struct ICEAuthenticationTests {
    typealias H = ICEHarness

    /// Delivers `request` to a fresh agent from `H.wifi`, checks that it did not change the
    /// agent, and returns the outcome and the parsed answer.
    static func reject(_ request: [UInt8], knowsPeer: Bool = true) -> (outcome: ICEBindingOutcome, answer: STUNMessage?, bytes: [UInt8]) {
        var agent = H.agent(knowsPeer: knowsPeer)
        let (outcome, response) = H.deliver(request, to: &agent, from: H.wifi, at: H.second)
        #expect(agent.state == .new)
        #expect(agent.selectedAddress == nil && agent.candidateAddress == nil)
        return (outcome, response.isEmpty ? nil : H.parse(response), response)
    }

    @Test(
        "wrong local ufrag, wrong remote ufrag or wrong password: 401 without MESSAGE-INTEGRITY",
        arguments: [
            ("RlyB:PeerUfrag1", ICEHarness.relay.password),
            ("RlyA:SomeoneElse", ICEHarness.relay.password),
            ("RlyA", ICEHarness.relay.password),
            ("RlyAPeerUfrag1", ICEHarness.relay.password),
            ("RlyA:PeerUfrag1", "relaypassword0123456789+X"),
            ("RlyA:PeerUfrag1", ICEHarness.peer.password),
        ])
    func unauthorized(username: String, password: String) throws {
        let transactionID = STUNTransactionID(high: 9, low: 9)
        let request = H.request(transactionID: transactionID, username: username, signWith: password)
        let (outcome, answer, bytes) = Self.reject(request)
        #expect(outcome == .respondError(length: bytes.count, code: .unauthorized))
        let message = try #require(answer)
        #expect(message.type == .bindingErrorResponse)
        #expect(message.transactionID == transactionID)
        #expect(message.integrity == nil, "no key is shared with a sender that failed to authenticate")
        #expect(message.fingerprint != nil)
        #expect(bytes.withUnsafeBytes { message.errorCode(in: $0) } == .unauthorized)
    }

    @Test("missing MESSAGE-INTEGRITY or USERNAME: 400 Bad Request")
    func badRequest() {
        for request in [
            H.request(username: "RlyA:PeerUfrag1", signWith: nil),
            H.request(username: nil, signWith: H.relay.password),
            H.request(username: nil, signWith: nil, fingerprint: false),
        ] {
            let (outcome, answer, bytes) = Self.reject(request)
            #expect(outcome == .respondError(length: bytes.count, code: .badRequest))
            #expect(answer.map { message in bytes.withUnsafeBytes { message.errorCode(in: $0) } } == .badRequest)
        }
    }

    @Test("broken attributes in a request: 400 Bad Request")
    func brokenAttributes() {
        var request = H.check(1).request()
        // PRIORITY follows the header and the 15-byte USERNAME (padded to 16); the low byte
        // of its length field goes from 4 to 3, a length no PRIORITY may have.
        let priorityLengthByte = 20 + 4 + 16 + 3
        #expect(request[priorityLengthByte] == 4)
        request[priorityLengthByte] = 3
        let (outcome, _, bytes) = Self.reject(request)
        #expect(outcome == .respondError(length: bytes.count, code: .badRequest))
    }

    @Test("a peer that also claims the controlled role gets a signed 487 Role Conflict")
    func roleConflict() throws {
        let request = H.request(username: "RlyA:PeerUfrag1", iceControlled: .max, signWith: H.relay.password)
        let (outcome, answer, bytes) = Self.reject(request)
        #expect(outcome == .respondError(length: bytes.count, code: .roleConflict))
        let message = try #require(answer)
        #expect(message.integrity != nil)
        #expect(bytes.withUnsafeBytes { message.errorCode(in: $0) } == .roleConflict)
        // The peer's own validation accepts it as a genuine answer from the relay.
        let check = ICEConnectivityCheck(
            transactionID: message.transactionID, localUfrag: H.peer.ufrag, remoteCredentials: H.relay,
            priority: 0, tieBreaker: 0, useCandidate: false)
        #expect(check.readResponse(bytes) == .errorResponse(.roleConflict))
    }

    @Test("an unknown comprehension-required attribute: signed 420 listing it")
    func unknownAttribute() throws {
        let request = H.request(username: "RlyA:PeerUfrag1", extra: STUNAttributeType(rawValue: 0x7ABC), signWith: H.relay.password)
        let (outcome, answer, bytes) = Self.reject(request)
        #expect(outcome == .respondError(length: bytes.count, code: .unknownAttribute))
        let message = try #require(answer)
        #expect(message.integrity != nil)
        let listed = bytes.withUnsafeBytes { packet in
            message.firstAttribute(.unknownAttributes, in: packet)?.value(in: packet).map { Array($0) }
        }
        #expect(listed == [0x7A, 0xBC])
    }

    @Test("an unknown comprehension-optional attribute is ignored")
    func unknownOptionalAttribute() {
        var agent = H.agent()
        let request = H.request(username: "RlyA:PeerUfrag1", extra: STUNAttributeType(rawValue: 0xC001), signWith: H.relay.password)
        let (outcome, _) = H.deliver(request, to: &agent, from: H.wifi, at: 0)
        guard case .respond = outcome else {
            Issue.record("expected a success response, got \(outcome)")
            return
        }
        #expect(agent.candidateAddress == H.wifi)
    }

    @Test("a wrong FINGERPRINT, indications, responses, other methods and non-STUN are dropped")
    func dropped() {
        var badFingerprint = H.check(1).request()
        badFingerprint[badFingerprint.count - 1] ^= 0x01
        #expect(Self.reject(badFingerprint).outcome == .drop(.malformed(.fingerprintMismatch)))

        let indication = H.request(type: .bindingIndication, username: nil, signWith: nil)
        #expect(Self.reject(indication).outcome == .drop(.notARequest(.indication)))

        let response = H.request(type: .bindingSuccessResponse, username: "RlyA:PeerUfrag1", signWith: H.relay.password)
        #expect(Self.reject(response).outcome == .drop(.notARequest(.successResponse)))

        let allocate = H.request(
            type: STUNMessageType(method: STUNMethod(rawValue: 0x003), messageClass: .request),
            username: "RlyA:PeerUfrag1", signWith: H.relay.password)
        #expect(Self.reject(allocate).outcome == .drop(.unsupportedMethod(STUNMethod(rawValue: 0x003))))

        #expect(Self.reject([0x80, 0x60] + [UInt8](repeating: 0, count: 30)).outcome == .drop(.malformed(.notSTUN)))
        #expect(Self.reject([]).outcome == .drop(.malformed(.truncatedHeader)))
    }

    @Test(
        "a response buffer too small for the check or the answer: dropped, and the check does not count",
        arguments: [(60, ICEHarness.wifi), (70, ICEHarness.ipv6)])
    func responseBufferTooSmall(capacity: Int, source: STUNAddress) {
        // The request signs 64 bytes; the answer takes 64 bytes for IPv4 and 76 for IPv6.
        // 60 bytes cannot hold the signed part for checking, 70 cannot hold the IPv6 answer.
        var agent = H.agent()
        let request = H.check(1, useCandidate: true).request()
        let (outcome, _) = H.deliver(request, to: &agent, from: source, at: 0, responseCapacity: capacity)
        #expect(outcome == .drop(.responseBufferTooSmall))
        #expect(agent.selectedAddress == nil)
        #expect(agent.state == .new)

        let (roomy, _) = H.deliver(request, to: &agent, from: source, at: 0, responseCapacity: 76)
        #expect(roomy == .respond(length: source.family == .ipv4 ? 64 : 76, event: .selectedAddressChanged(source)))
    }
}
