import ICE
import RTPWire
import STUNTestVectors
import Testing

@Suite("ICE-lite agent: checks and nomination")
struct ICELiteAgentTests {
    typealias H = ICEHarness

    @Test("a check without USE-CANDIDATE, then one with it, as aiortc sends them")
    func checkThenNominate() {
        var agent = H.agent()
        let first = H.run(H.check(1), on: &agent, from: H.wifi, at: 1 * H.second)
        #expect(first.result == .success(mappedAddress: H.wifi))
        guard case .respond(_, let firstEvent) = first.outcome else {
            Issue.record("expected a success response, got \(first.outcome)")
            return
        }
        #expect(firstEvent == nil)
        #expect(agent.state == .checking)
        #expect(agent.candidateAddress == H.wifi)
        #expect(agent.selectedAddress == nil)
        #expect(!agent.isConnected)

        let second = H.run(H.check(2, useCandidate: true), on: &agent, from: H.wifi, at: 2 * H.second)
        #expect(second.result == .success(mappedAddress: H.wifi))
        guard case .respond(_, let secondEvent) = second.outcome else {
            Issue.record("expected a success response, got \(second.outcome)")
            return
        }
        #expect(secondEvent == .selectedAddressChanged(H.wifi))
        #expect(agent.state == .connected)
        #expect(agent.isConnected)
        #expect(agent.selectedAddress == H.wifi)
        #expect(agent.candidateAddress == nil)
        #expect(agent.consentRefreshedAt == 2 * H.second)
    }

    @Test(
        "success responses echo the transaction, map the sender and are signed with the local password",
        arguments: [H.wifi, H.ipv6])
    func successResponse(source: STUNAddress) throws {
        var agent = H.agent()
        let check = H.check(7, useCandidate: true)
        let (outcome, response) = H.deliver(check.request(), to: &agent, from: source, at: 0)
        guard case .respond(let length, _) = outcome else {
            Issue.record("expected a success response, got \(outcome)")
            return
        }
        #expect(length == response.count)
        let message = try #require(H.parse(response))
        #expect(message.type == .bindingSuccessResponse)
        #expect(message.transactionID == check.transactionID)
        #expect(message.fingerprint != nil, "parsing checked the FINGERPRINT value")
        #expect(response.withUnsafeBytes { message.xorMappedAddress(in: $0) } == source)
        let verifies = { (password: String) in
            response.withUnsafeBytes { packet in
                var scratch = [UInt8](repeating: 0, count: packet.count)
                return scratch.withUnsafeMutableBytes { scratch in
                    Array(password.utf8).withUnsafeBytes {
                        STUNMessageIntegrity.isValid(message, in: packet, key: $0, scratch: scratch)
                    }
                }
            }
        }
        #expect(verifies(H.relay.password))
        #expect(!verifies(H.peer.password))
    }

    @Test("repeated nominations of the same address report the change only once")
    func repeatedNomination() {
        var agent = H.agent()
        var events: [ICEAgentEvent?] = []
        for number in 1...3 {
            if case .respond(_, let event) = H.run(H.check(UInt64(number), useCandidate: true), on: &agent, from: H.wifi, at: UInt64(number) * H.second).outcome
            {
                events.append(event)
            }
        }
        #expect(events == [.selectedAddressChanged(H.wifi), nil, nil])
    }

    @Test("a later nomination from a new address switches the selected address")
    func renomination() {
        var agent = H.agent()
        _ = H.run(H.check(1, useCandidate: true), on: &agent, from: H.wifi, at: 1 * H.second)
        #expect(agent.selectedAddress == H.wifi)

        // A check from the new path alone does not move the media.
        _ = H.run(H.check(2), on: &agent, from: H.cellular, at: 2 * H.second)
        #expect(agent.selectedAddress == H.wifi)
        #expect(agent.candidateAddress == H.cellular)

        let nominated = H.run(H.check(3, useCandidate: true), on: &agent, from: H.cellular, at: 3 * H.second)
        guard case .respond(_, let event) = nominated.outcome else {
            Issue.record("expected a success response, got \(nominated.outcome)")
            return
        }
        #expect(event == .selectedAddressChanged(H.cellular))
        #expect(agent.selectedAddress == H.cellular)
        #expect(agent.candidateAddress == nil)
        #expect(agent.isConnected)
    }

    @Test("checks arriving before the peer's SDP are accepted with any remote ufrag, and bound to it after")
    func remoteUfragLearntLate() {
        var agent = H.agent(knowsPeer: false)
        let early = H.check(1, localUfrag: "SomeoneElse")
        #expect(H.run(early, on: &agent, from: H.wifi, at: 0).result == .success(mappedAddress: H.wifi))

        agent.setRemoteCredentials(H.peer)
        #expect(agent.remoteCredentials == H.peer)
        #expect(H.run(H.check(2, localUfrag: "SomeoneElse"), on: &agent, from: H.wifi, at: 1).result == .errorResponse(.unauthorized))
        #expect(H.run(H.check(3), on: &agent, from: H.wifi, at: 2).result == .success(mappedAddress: H.wifi))
    }

    @Test("the RFC 5769 sample request, answered by an agent holding its credentials, is a role conflict")
    func rfc5769Request() {
        // The sample carries ICE-CONTROLLED, so a controlled agent must answer 487, signed.
        let sample = ICECredentials(ufrag: "evtj", password: "VOkJxbRl1RmTxUk/WvJxBt")
        var agent = ICELiteAgent(
            localCredentials: sample, remoteCredentials: ICECredentials(ufrag: "h6vY", password: String(repeating: "x", count: 22)), createdAt: 0)
        let (outcome, response) = H.deliver(STUNTestVectors.sampleRequest, to: &agent, from: H.wifi, at: 0)
        #expect(outcome == .respondError(length: response.count, code: .roleConflict))
        let message = H.parse(response)
        #expect(message?.integrity != nil)
        #expect(agent.state == .new)
    }
}
