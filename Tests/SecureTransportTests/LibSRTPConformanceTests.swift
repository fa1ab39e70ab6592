import SecureTransport
import Testing

/// Checks that libsrtp, driven through ``SRTPSession``, produces exactly the bytes the
/// independent reference produces for the same master key, salt and packets.
@Suite("libsrtp output equals the reference implementation")
struct LibSRTPConformanceTests {
    /// The RFC 3711 B.3 master key and salt; GCM uses the salt's first 12 bytes.
    static let masterKey = [UInt8](hex: "E1F97A0D3E018BE0D64FA32C06DE4139")
    static let masterSalt = [UInt8](hex: "0EC675AD498AFEEBB6960B3AABE6")

    static func keyingMaterial(for profile: SRTPProfile) -> [UInt8] {
        masterKey + masterSalt.prefix(profile.masterSaltLength)
    }

    static func referenceKeys(for profile: SRTPProfile, forRTCP: Bool) -> SRTPReferenceKeys {
        SRTPReference.sessionKeys(
            profile: profile, masterKey: masterKey,
            masterSalt: Array(masterSalt.prefix(profile.masterSaltLength)), forRTCP: forRTCP)
    }

    /// RTP packets in sending order with the rollover counter the sender must be using:
    /// one SSRC crosses the sequence number wrap, another starts on its own counter.
    static let rtpSequence: [(packet: [UInt8], rolloverCounter: UInt32)] = [
        (TestPackets.rtp(ssrc: 0xCAFE_BABE, sequenceNumber: 0xFFFE), 0),
        (TestPackets.rtp(ssrc: 0xCAFE_BABE, sequenceNumber: 0xFFFF, csrcs: [0x1111_1111, 0x2222_2222]), 0),
        (TestPackets.rtp(ssrc: 0x0102_0304, sequenceNumber: 0x1234, withExtension: true), 0),
        (TestPackets.rtp(ssrc: 0xCAFE_BABE, sequenceNumber: 0x0000, withExtension: true), 1),
        (TestPackets.rtp(ssrc: 0xCAFE_BABE, sequenceNumber: 0x0001, payload: []), 1),
        (
            TestPackets.rtp(
                ssrc: 0x0102_0304, sequenceNumber: 0x1235, payload: Array(0..<200), csrcs: [7], withExtension: true), 0
        ),
    ]

    @Test("SRTP: protected packets match byte for byte", arguments: SRTPProfile.allCases)
    func rtpMatchesReference(profile: SRTPProfile) throws {
        let sender = try SRTPSession(
            profile: profile, keyingMaterial: Self.keyingMaterial(for: profile), direction: .sender)
        let keys = Self.referenceKeys(for: profile, forRTCP: false)
        for (packet, rolloverCounter) in Self.rtpSequence {
            let expected =
                switch profile {
                case .aesCM128HMACSHA1_80:
                    SRTPReference.protectRTPWithAESCM(packet, keys: keys, rolloverCounter: rolloverCounter)
                case .aeadAES128GCM:
                    SRTPReference.protectRTPWithGCM(packet, keys: keys, rolloverCounter: rolloverCounter)
                }
            let (status, protected) = sender.protectRTP(packet)
            #expect(status == .ok)
            #expect(protected.count == packet.count + profile.rtpTrailerLength)
            #expect(protected.hex == expected.hex)
        }
    }

    @Test("SRTP: libsrtp unprotects what the reference protected", arguments: SRTPProfile.allCases)
    func rtpReferenceOutputUnprotects(profile: SRTPProfile) throws {
        let receiver = try SRTPSession(
            profile: profile, keyingMaterial: Self.keyingMaterial(for: profile), direction: .receiver)
        let keys = Self.referenceKeys(for: profile, forRTCP: false)
        for (packet, rolloverCounter) in Self.rtpSequence {
            let protected =
                switch profile {
                case .aesCM128HMACSHA1_80:
                    SRTPReference.protectRTPWithAESCM(packet, keys: keys, rolloverCounter: rolloverCounter)
                case .aeadAES128GCM:
                    SRTPReference.protectRTPWithGCM(packet, keys: keys, rolloverCounter: rolloverCounter)
                }
            let (status, plain) = receiver.unprotectRTP(protected)
            #expect(status == .ok)
            #expect(plain == packet)
        }
    }

    /// RTCP packets in sending order with the SRTCP index libsrtp assigns: each SSRC
    /// counts from 1.
    static let rtcpSequence: [(packet: [UInt8], index: UInt32)] = [
        (TestPackets.rtcpReceiverReport(ssrc: 0xCAFE_BABE), 1),
        (TestPackets.rtcpReceiverReport(ssrc: 0xCAFE_BABE), 2),
        (TestPackets.rtcpReceiverReport(ssrc: 0x0102_0304), 1),
        (TestPackets.rtcpReceiverReport(ssrc: 0xCAFE_BABE), 3),
    ]

    @Test("SRTCP: protected packets match byte for byte", arguments: SRTPProfile.allCases)
    func rtcpMatchesReference(profile: SRTPProfile) throws {
        let sender = try SRTPSession(
            profile: profile, keyingMaterial: Self.keyingMaterial(for: profile), direction: .sender)
        let keys = Self.referenceKeys(for: profile, forRTCP: true)
        for (packet, index) in Self.rtcpSequence {
            let expected =
                switch profile {
                case .aesCM128HMACSHA1_80: SRTPReference.protectRTCPWithAESCM(packet, keys: keys, index: index)
                case .aeadAES128GCM: SRTPReference.protectRTCPWithGCM(packet, keys: keys, index: index)
                }
            let (status, protected) = sender.protectRTCP(packet)
            #expect(status == .ok)
            #expect(protected.count == packet.count + profile.rtcpTrailerLength)
            #expect(protected.hex == expected.hex)
        }
    }

    @Test("SRTCP: libsrtp unprotects what the reference protected", arguments: SRTPProfile.allCases)
    func rtcpReferenceOutputUnprotects(profile: SRTPProfile) throws {
        let receiver = try SRTPSession(
            profile: profile, keyingMaterial: Self.keyingMaterial(for: profile), direction: .receiver)
        let keys = Self.referenceKeys(for: profile, forRTCP: true)
        for (packet, index) in Self.rtcpSequence {
            let protected =
                switch profile {
                case .aesCM128HMACSHA1_80: SRTPReference.protectRTCPWithAESCM(packet, keys: keys, index: index)
                case .aeadAES128GCM: SRTPReference.protectRTCPWithGCM(packet, keys: keys, index: index)
                }
            let (status, plain) = receiver.unprotectRTCP(protected)
            #expect(status == .ok)
            #expect(plain == packet)
        }
    }

    /// RFC 7714 section 9.3: an SRTCP packet may travel unencrypted, E flag clear, with all of
    /// it authenticated as associated data. libsrtp accepts one under GCM; so must the session
    /// on OpenSSL, with the same bytes, and both must refuse it altered.
    @Test("SRTCP with GCM: an unencrypted packet is accepted as libsrtp accepts it, and refused altered")
    func unencryptedGCMRTCP() throws {
        let profile = SRTPProfile.aeadAES128GCM
        let keys = Self.referenceKeys(for: profile, forRTCP: true)
        let fast = try SRTPSession(profile: profile, keyingMaterial: Self.keyingMaterial(for: profile), direction: .receiver)
        let reference = try SRTPSession(
            profile: profile, keyingMaterial: Self.keyingMaterial(for: profile), direction: .receiver, replayWindowSize: 1024, onOpenSSL: false)
        for (packet, index) in Self.rtcpSequence {
            let trailer = SRTPReference.bigEndian(UInt64(index), count: 4)
            let iv = SRTPReference.gcmRTCPIV(salt: keys.salt, ssrc: SRTPReference.word(packet, at: 4), index: index)
            let tag = SRTPReference.gcmSeal(key: keys.encryptionKey, iv: iv, aad: packet + trailer, plaintext: [])
            let unencrypted = packet + tag + trailer
            var altered = unencrypted
            altered[9] ^= 0x01
            for session in [fast, reference] {
                #expect(session.unprotectRTCP(altered).status == .authenticationFailed)
                let (status, plain) = session.unprotectRTCP(unencrypted)
                #expect(status == .ok)
                #expect(plain == packet)
            }
        }
    }
}
