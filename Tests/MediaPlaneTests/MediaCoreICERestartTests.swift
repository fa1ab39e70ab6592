import ICE
import RTPWire
import Testing

@testable import MediaPlane

/// An ICE restart on the data plane: checks are routed by the relay's username fragment, so
/// the new one must reach the transport and the old one no longer.
@Suite struct MediaCoreICERestartTests {
    static let relay = ICECredentials(ufrag: "RlyA", password: "relaypassword0123456789+/")
    static let peer = ICECredentials(ufrag: "PeerUfrag1", password: "peerpassword0123456789ABCD")
    static let relayAfter = ICECredentials(ufrag: "RlyB", password: "relaypasswordAfterRestart01")
    static let peerAfter = ICECredentials(ufrag: "PeerUfrag2", password: "peerpasswordAfterRestart012")
    static let client = MediaCoreForwardingTests.subscriber

    static func check(_ number: UInt64, from peer: ICECredentials, to relay: ICECredentials) -> [UInt8] {
        var request = [UInt8](repeating: 0, count: 512)
        let check = ICEConnectivityCheck(
            transactionID: STUNTransactionID(high: 0xC0FF_EE00, low: number), localUfrag: peer.ufrag, remoteCredentials: relay,
            priority: 0x6E7F_1EFF, tieBreaker: 7, useCandidate: true)
        let length = request.withUnsafeMutableBytes { check.writeRequest(into: $0) } ?? 0
        return Array(request.prefix(length))
    }

    static func deliver(_ bytes: [UInt8], to h: CoreHarness) {
        var bytes = bytes
        bytes.withUnsafeMutableBytes { h.core.handleWebRTCDatagram($0.baseAddress!, length: $0.count, from: client) }
    }

    @Test func checksFollowTheNewCredentialsAfterARestart() throws {
        let h = CoreHarness(hasWebRTCSocket: true)
        let agent = ICELiteAgent(localCredentials: Self.relay, remoteCredentials: Self.peer, timeouts: ICETimeouts(), createdAt: UInt64(h.nowMs) * 1_000_000)
        h.core.apply(.addWebRTCTransport(id: 5, agent: agent, audioLevelExtensionId: 0))
        Self.deliver(Self.check(1, from: Self.peer, to: Self.relay), to: h)
        #expect(h.output.datagrams.count == 1, "answered before the restart")

        h.core.apply(.restartICE(id: 5, local: Self.relayAfter, remote: Self.peerAfter))
        let transport = try #require(h.core.transports[5])
        #expect(transport.ice?.localCredentials == Self.relayAfter)
        #expect(transport.ice?.isConnected == true, "the path stands through the restart")

        Self.deliver(Self.check(2, from: Self.peer, to: Self.relay), to: h)
        #expect(h.output.datagrams.count == 1, "the old username fragment reaches no transport")

        Self.deliver(Self.check(3, from: Self.peerAfter, to: Self.relayAfter), to: h)
        #expect(h.output.datagrams.count == 2, "the new one is answered")

        h.core.apply(.removeTransport(id: 5))
        Self.deliver(Self.check(4, from: Self.peerAfter, to: Self.relayAfter), to: h)
        #expect(h.output.datagrams.count == 2, "removing the transport forgets its new username fragment too")
    }

    @Test func aTransportKeepsAtMostSixteenRoutedAddressesAndNeverItsSelectedOne() throws {
        let h = CoreHarness(hasWebRTCSocket: true)
        let agent = ICELiteAgent(localCredentials: Self.relay, remoteCredentials: Self.peer, timeouts: ICETimeouts(), createdAt: UInt64(h.nowMs) * 1_000_000)
        h.core.apply(.addWebRTCTransport(id: 5, agent: agent, audioLevelExtensionId: 0))
        let transport = try #require(h.core.transports[5])
        func check(_ number: UInt64, from endpoint: PeerEndpoint) {
            var bytes = Self.check(number, from: Self.peer, to: Self.relay)
            bytes.withUnsafeMutableBytes { h.core.handleWebRTCDatagram($0.baseAddress!, length: $0.count, from: endpoint) }
        }
        let first = PeerEndpoint(ip: 0x0A00_0001, port: 1000)
        check(1, from: first)
        #expect(transport.remoteKey == first.key)
        for number in 2...40 { check(UInt64(number), from: PeerEndpoint(ip: 0x0A00_0001, port: UInt16(1000 + number))) }
        #expect(transport.iceAddressKeys.count == MediaCore.maximumICEAddresses)
        #expect(h.core.webRTCByAddress.count == MediaCore.maximumICEAddresses)
        // Nominated last, the newest address is selected; the oldest ones were forgotten.
        #expect(transport.remoteKey == PeerEndpoint(ip: 0x0A00_0001, port: 1040).key)
        #expect(h.core.webRTCByAddress[first.key] == nil && h.core.webRTCByAddress[PeerEndpoint(ip: 0x0A00_0001, port: 1040).key] === transport)
    }

    @Test func anAddressCheckedForAnotherTransportComesBackWithItsNextCheck() throws {
        let h = CoreHarness(hasWebRTCSocket: true)
        let other = ICECredentials(ufrag: "RlyC", password: "relaypasswordOfTransportC1")
        h.core.apply(
            .addWebRTCTransport(
                id: 5, agent: ICELiteAgent(localCredentials: Self.relay, remoteCredentials: Self.peer, timeouts: ICETimeouts(), createdAt: 0),
                audioLevelExtensionId: 0))
        h.core.apply(
            .addWebRTCTransport(
                id: 6, agent: ICELiteAgent(localCredentials: other, remoteCredentials: Self.peer, timeouts: ICETimeouts(), createdAt: 0),
                audioLevelExtensionId: 0))
        Self.deliver(Self.check(1, from: Self.peer, to: Self.relay), to: h)
        Self.deliver(Self.check(2, from: Self.peer, to: other), to: h)
        #expect(h.core.webRTCByAddress[Self.client.key] === h.core.transports[6])
        h.core.apply(.removeTransport(id: 6))
        #expect(h.core.webRTCByAddress[Self.client.key] == nil)
        // Transport 5's next check from the address routes it there again.
        Self.deliver(Self.check(3, from: Self.peer, to: Self.relay), to: h)
        #expect(h.core.webRTCByAddress[Self.client.key] === h.core.transports[5])
    }
}
