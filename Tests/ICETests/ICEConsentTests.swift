import ICE
import RTPWire
import Testing

@Suite("ICE-lite agent: consent freshness and timeouts")
struct ICEConsentTests {
    typealias H = ICEHarness

    /// An agent made at 0 and nominated from `H.wifi` at 1 s.
    static func connectedAgent(timeouts: ICETimeouts = ICETimeouts()) -> ICELiteAgent {
        var agent = H.agent(timeouts: timeouts)
        _ = H.run(H.check(0, useCandidate: true), on: &agent, from: H.wifi, at: 1 * H.second)
        return agent
    }

    @Test("checks every 5 seconds keep consent fresh for minutes")
    func periodicChecks() {
        var agent = Self.connectedAgent()
        var expiries: [ICEAgentEvent] = []
        for tick in 1...120 {
            let now = 1 * H.second + UInt64(tick) * H.second
            if tick % 5 == 0 {
                let result = H.run(H.check(UInt64(tick)), on: &agent, from: H.wifi, at: now).result
                #expect(result == .success(mappedAddress: H.wifi))
                #expect(agent.consentRefreshedAt == now)
            }
            if let event = agent.checkConsent(at: now) { expiries.append(event) }
        }
        #expect(expiries.isEmpty)
        #expect(agent.isConnected)
        #expect(agent.expiryDeadline == 121 * H.second + 30 * H.second)
    }

    @Test("consent lapses 30 seconds after the last check, reported once")
    func consentLapses() {
        var agent = Self.connectedAgent()
        _ = H.run(H.check(1), on: &agent, from: H.wifi, at: 10 * H.second)
        #expect(agent.expiryDeadline == 40 * H.second)
        #expect(agent.checkConsent(at: 40 * H.second - 1) == nil)
        #expect(agent.isConnected)
        #expect(agent.checkConsent(at: 40 * H.second) == .expired(.consentLapsed))
        #expect(agent.state == .expired(.consentLapsed))
        #expect(!agent.isConnected)
        #expect(agent.expiryDeadline == nil)
        #expect(agent.checkConsent(at: 41 * H.second) == nil, "expiry is reported once")
    }

    @Test("an expired agent answers nothing, not even a valid nomination")
    func expiredIsFinal() {
        var agent = Self.connectedAgent()
        _ = agent.checkConsent(at: 100 * H.second)
        let (outcome, response) = H.deliver(H.check(9, useCandidate: true).request(), to: &agent, from: H.wifi, at: 101 * H.second)
        #expect(outcome == .drop(.agentExpired))
        #expect(response.isEmpty)
        #expect(agent.state == .expired(.consentLapsed))
    }

    @Test("checks from an address that is not selected do not renew consent")
    func otherAddressDoesNotRenew() {
        var agent = Self.connectedAgent()
        for tick in stride(from: UInt64(5), through: 30, by: 5) {
            _ = H.run(H.check(tick), on: &agent, from: H.cellular, at: tick * H.second)
            #expect(agent.checkConsent(at: tick * H.second) == nil)
        }
        #expect(agent.consentRefreshedAt == 1 * H.second)
        #expect(agent.checkConsent(at: 31 * H.second) == .expired(.consentLapsed))
    }

    @Test("a transport that never gets a valid check gives up after the connect timeout")
    func neverConnected() {
        var agent = H.agent(createdAt: 5 * H.second)
        #expect(agent.expiryDeadline == 35 * H.second)
        #expect(agent.checkConsent(at: 35 * H.second - 1) == nil)
        #expect(agent.checkConsent(at: 35 * H.second) == .expired(.neverConnected))
        #expect(agent.state == .expired(.neverConnected))
    }

    @Test("checks without a nomination do not count as connecting")
    func checkedButNeverNominated() {
        var agent = H.agent()
        _ = H.run(H.check(1), on: &agent, from: H.wifi, at: 20 * H.second)
        #expect(agent.state == .checking)
        #expect(agent.checkConsent(at: 30 * H.second) == .expired(.neverConnected))
    }

    @Test("rejected checks do not keep a transport alive")
    func rejectedChecksDoNotCount() {
        var agent = Self.connectedAgent()
        let forged = H.check(3, remote: ICECredentials(ufrag: H.relay.ufrag, password: "wrongpassword0123456789"))
        #expect(H.run(forged, on: &agent, from: H.wifi, at: 20 * H.second).result == .errorResponse(.unauthorized))
        #expect(agent.checkConsent(at: 31 * H.second) == .expired(.consentLapsed))
    }

    @Test("both timeouts can be configured")
    func configuredTimeouts() {
        let timeouts = ICETimeouts(consent: 5 * H.second, connect: 2 * H.second)
        var waiting = H.agent(timeouts: timeouts)
        #expect(waiting.checkConsent(at: 2 * H.second) == .expired(.neverConnected))

        var connected = Self.connectedAgent(timeouts: timeouts)
        #expect(connected.checkConsent(at: 6 * H.second - 1) == nil)
        #expect(connected.checkConsent(at: 6 * H.second) == .expired(.consentLapsed))
    }

    @Test("a clock reading earlier than the last refresh counts as no time passed")
    func clockBehind() {
        var agent = Self.connectedAgent()
        #expect(agent.checkConsent(at: 0) == nil)
        #expect(agent.isConnected)
    }
}
