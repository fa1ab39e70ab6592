import ICE
import RTPWire
import Testing

@Suite("ICE-lite agent: ICE restart")
struct ICERestartTests {
    typealias H = ICEHarness

    static let relayAfter = ICECredentials(ufrag: "RlyB", password: "relaypasswordAfterRestart01")
    static let peerAfter = ICECredentials(ufrag: "PeerUfrag2", password: "peerpasswordAfterRestart012")

    @Test("after a restart the selected address stands and only checks naming the new credentials pass")
    func restartKeepsPathAndChangesCredentials() {
        var agent = H.agent()
        _ = H.run(H.check(1, useCandidate: true), on: &agent, from: H.wifi, at: 1 * H.second)
        #expect(agent.selectedAddress == H.wifi)

        agent.restart(localCredentials: Self.relayAfter, remoteCredentials: Self.peerAfter)
        #expect(agent.localCredentials == Self.relayAfter)
        #expect(agent.remoteCredentials == Self.peerAfter)
        #expect(agent.selectedAddress == H.wifi, "media goes on over the old path until a new one is nominated")
        #expect(agent.isConnected)

        let old = H.run(H.check(2, useCandidate: true), on: &agent, from: H.wifi, at: 2 * H.second)
        #expect(old.result == .errorResponse(.unauthorized), "a check with the old credentials is refused: \(old.outcome)")
        if case .respond = old.outcome { Issue.record("the old credentials must not pass a check after a restart") }

        let new = H.run(H.check(3, useCandidate: true, localUfrag: Self.peerAfter.ufrag, remote: Self.relayAfter), on: &agent, from: H.wifi, at: 3 * H.second)
        #expect(new.result == .success(mappedAddress: H.wifi))
        #expect(agent.consentRefreshedAt == 3 * H.second)
    }

    @Test("a restart from a new network: the checks with the new credentials move the selected address")
    func restartMovesToNewNetwork() {
        var agent = H.agent()
        _ = H.run(H.check(1, useCandidate: true), on: &agent, from: H.wifi, at: 1 * H.second)
        agent.restart(localCredentials: Self.relayAfter, remoteCredentials: Self.peerAfter)
        let moved = H.run(
            H.check(2, useCandidate: true, localUfrag: Self.peerAfter.ufrag, remote: Self.relayAfter), on: &agent, from: H.cellular, at: 2 * H.second)
        #expect(moved.result == .success(mappedAddress: H.cellular))
        guard case .respond(_, let event) = moved.outcome else {
            Issue.record("expected a success response, got \(moved.outcome)")
            return
        }
        #expect(event == .selectedAddressChanged(H.cellular))
        #expect(agent.selectedAddress == H.cellular)
    }
}
