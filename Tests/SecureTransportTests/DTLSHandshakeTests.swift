import SecureTransport
import Testing

/// Full handshakes between two in-memory endpoints: keys, profiles, fingerprints, MTU.
@Suite("DTLS handshake between two endpoints")
struct DTLSHandshakeTests {
    /// The DTLS record header length (RFC 6347 section 4.1).
    static let recordHeaderLength = 13

    @Test("Both sides connect with GCM and mirrored keys when both offer it first")
    func mirroredGCMKeys() throws {
        let loopback = try DTLSLoopback()
        loopback.handshake()
        let keys = try #require(loopback.keys)
        #expect(keys.client.profile == .aeadAES128GCM)
        #expect(keys.server.profile == .aeadAES128GCM)
        #expect(keys.client.localKeyingMaterial.count == 28)
        #expect(keys.client.localKeyingMaterial == keys.server.remoteKeyingMaterial)
        #expect(keys.client.remoteKeyingMaterial == keys.server.localKeyingMaterial)
        #expect(keys.client.localKeyingMaterial != keys.client.remoteKeyingMaterial)
        #expect(loopback.client.nextTimeout == nil)
        #expect(loopback.server.nextTimeout == nil)
    }

    @Test("A client that offers only AES-CM-80 gets AES-CM-80")
    func clientOffersOnlyCM80() throws {
        let loopback = try DTLSLoopback(clientProfiles: [.aesCM128HMACSHA1_80])
        loopback.handshake()
        let keys = try #require(loopback.keys)
        #expect(keys.client.profile == .aesCM128HMACSHA1_80)
        #expect(keys.server.profile == .aesCM128HMACSHA1_80)
        #expect(keys.client.localKeyingMaterial.count == 30)
        #expect(keys.client.localKeyingMaterial == keys.server.remoteKeyingMaterial)
        #expect(keys.client.remoteKeyingMaterial == keys.server.localKeyingMaterial)
    }

    @Test("The server's preference wins over the client's order")
    func serverOrderWins() throws {
        let gcmFirst = try DTLSLoopback(
            clientProfiles: [.aesCM128HMACSHA1_80, .aeadAES128GCM],
            serverProfiles: [.aeadAES128GCM, .aesCM128HMACSHA1_80])
        gcmFirst.handshake()
        #expect(gcmFirst.keys?.client.profile == .aeadAES128GCM)
        #expect(gcmFirst.keys?.server.profile == .aeadAES128GCM)

        let cmFirst = try DTLSLoopback(
            clientProfiles: [.aeadAES128GCM, .aesCM128HMACSHA1_80],
            serverProfiles: [.aesCM128HMACSHA1_80, .aeadAES128GCM])
        cmFirst.handshake()
        #expect(cmFirst.keys?.client.profile == .aesCM128HMACSHA1_80)
        #expect(cmFirst.keys?.server.profile == .aesCM128HMACSHA1_80)
    }

    @Test("Without a common SRTP profile both sides fail with no_srtp_profile")
    func noCommonProfile() throws {
        let loopback = try DTLSLoopback(
            clientProfiles: [.aeadAES128GCM], serverProfiles: [.aesCM128HMACSHA1_80])
        loopback.handshake()
        #expect(loopback.client.state.failure?.reason == .noSRTPProfile)
        #expect(loopback.server.state.failure?.reason == .noSRTPProfile)
        #expect(loopback.keys == nil)
    }

    @Test(
        "The keys protect with one side's sessions and unprotect with the other's",
        arguments: [[SRTPProfile.aeadAES128GCM], [SRTPProfile.aesCM128HMACSHA1_80]])
    func keysWorkWithSRTPSessions(profiles: [SRTPProfile]) throws {
        let loopback = try DTLSLoopback(clientProfiles: profiles, serverProfiles: profiles)
        loopback.handshake()
        let keys = try #require(loopback.keys)
        let clientSender = try keys.client.makeSenderSession()
        let clientReceiver = try keys.client.makeReceiverSession()
        let serverSender = try keys.server.makeSenderSession()
        let serverReceiver = try keys.server.makeReceiverSession()

        let upstream = TestPackets.rtp(ssrc: 0x0102_0304, sequenceNumber: 7)
        let protectedUpstream = clientSender.protectRTP(upstream)
        #expect(protectedUpstream.status == .ok)
        #expect(protectedUpstream.packet.count == upstream.count + profiles[0].rtpTrailerLength)
        #expect(serverReceiver.unprotectRTP(protectedUpstream.packet) == (.ok, upstream))

        let downstream = TestPackets.rtcpReceiverReport(ssrc: 0x0A0B_0C0D)
        let protectedDownstream = serverSender.protectRTCP(downstream)
        #expect(protectedDownstream.status == .ok)
        #expect(clientReceiver.unprotectRTCP(protectedDownstream.packet) == (.ok, downstream))

        // Each direction has its own key: a side cannot read its own packets back.
        #expect(clientReceiver.unprotectRTP(protectedUpstream.packet).status == .authenticationFailed)
    }

    @Test("A client expecting another certificate fails with fingerprint_mismatch")
    func clientRejectsServerCertificate() throws {
        let stranger = try DTLSCertificate()
        let loopback = try DTLSLoopback(clientExpects: { _ in [stranger.fingerprint] })
        loopback.handshake()
        let failure = try #require(loopback.client.state.failure)
        #expect(failure.reason == .fingerprintMismatch)
        #expect(failure.reason.rawValue == "dtls_fingerprint_mismatch")
        #expect(loopback.client.peerFingerprint != nil)
        #expect(loopback.client.peerFingerprint != stranger.fingerprint)
        // The client told the server, which connected first, that it is closing.
        if case .closed = loopback.server.state {
        } else {
            Issue.record("server should be closed, is \(loopback.server.state)")
        }
    }

    @Test("A server expecting another certificate fails with fingerprint_mismatch")
    func serverRejectsClientCertificate() throws {
        let stranger = try DTLSCertificate()
        let loopback = try DTLSLoopback(serverExpects: { _ in [stranger.fingerprint] })
        loopback.handshake()
        #expect(loopback.server.state.failure?.reason == .fingerprintMismatch)
        #expect(loopback.server.state.keys == nil)
        #expect(loopback.client.state.keys == nil)
    }

    @Test(
        "Any matching fingerprint is enough, whatever its hash function",
        arguments: DTLSFingerprintAlgorithm.allCases)
    func anyExpectedFingerprintMatches(algorithm: DTLSFingerprintAlgorithm) throws {
        let stranger = try DTLSCertificate()
        let loopback = try DTLSLoopback(
            clientExpects: { server in [stranger.fingerprint, server.fingerprint(using: algorithm)] },
            serverExpects: { client in [client.fingerprint(using: algorithm)] })
        loopback.handshake()
        #expect(loopback.keys != nil)
    }

    @Test("A small MTU fragments the flights and every datagram fits it")
    func smallMTUFragments() throws {
        let mtu = DTLSEndpoint.minimumMaximumDatagramSize
        let loopback = try DTLSLoopback(clientMaximumDatagramSize: mtu, serverMaximumDatagramSize: mtu)
        loopback.handshake()
        let keys = try #require(loopback.keys)
        #expect(keys.client.localKeyingMaterial == keys.server.remoteKeyingMaterial)
        #expect(loopback.clientDatagrams.allSatisfy { $0.count <= mtu })
        #expect(loopback.serverDatagrams.allSatisfy { $0.count <= mtu })
        // The server's certificate (about 400 bytes) cannot fit one datagram: some handshake
        // message went out in fragments shorter than the message.
        #expect(loopback.serverDatagrams.contains { Self.carriesHandshakeFragment($0) })
        #expect(loopback.clientDatagrams.contains { Self.carriesHandshakeFragment($0) })
    }

    @Test("Each datagram carries whole records: records never straddle datagrams")
    func datagramsHoldWholeRecords() throws {
        let loopback = try DTLSLoopback()
        loopback.handshake()
        #expect(loopback.keys != nil)
        for datagram in loopback.clientDatagrams + loopback.serverDatagrams {
            var offset = 0
            while offset + Self.recordHeaderLength <= datagram.count {
                let length = Int(datagram[offset + 11]) << 8 | Int(datagram[offset + 12])
                offset += Self.recordHeaderLength + length
            }
            #expect(offset == datagram.count)
        }
    }

    /// Whether `datagram` starts with a plaintext handshake record carrying a fragment
    /// shorter than its message.
    static func carriesHandshakeFragment(_ datagram: [UInt8]) -> Bool {
        guard datagram.count >= recordHeaderLength + 12, datagram[0] == 22,
            datagram[3] == 0, datagram[4] == 0
        else {
            return false
        }
        let header = recordHeaderLength
        let messageLength = Int(datagram[header + 1]) << 16 | Int(datagram[header + 2]) << 8 | Int(datagram[header + 3])
        let fragmentLength = Int(datagram[header + 9]) << 16 | Int(datagram[header + 10]) << 8 | Int(datagram[header + 11])
        return fragmentLength < messageLength
    }
}
