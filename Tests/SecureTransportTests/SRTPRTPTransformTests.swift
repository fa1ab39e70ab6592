import Testing

@testable import SecureTransport

/// For each profile, the OpenSSL opener opens what libsrtp protected, and nothing else; the
/// sealer seals what libsrtp opens; and sessions on OpenSSL give libsrtp's bytes and statuses.
@Suite("SRTP on OpenSSL against libsrtp")
struct SRTPRTPTransformTests {
    static let profiles: [SRTPProfile] = [.aeadAES128GCM, .aesCM128HMACSHA1_80]

    static func material(_ profile: SRTPProfile) -> [UInt8] {
        (0..<profile.keyingMaterialLength).map { UInt8(($0 * 37 + 11) & 0xFF) }
    }

    /// Opens `protected` with the receiver; nil when it refuses.
    static func open(_ receiver: SRTPRTPOpener, _ protected: [UInt8], rolloverCounter: UInt32) -> [UInt8]? {
        var buffer = protected
        var length = buffer.count
        let opened = buffer.withUnsafeMutableBytes { receiver.open($0.baseAddress!, length: &length, rolloverCounter: rolloverCounter) }
        return opened == .ok ? Array(buffer[0..<length]) : nil
    }

    @Test("every packet libsrtp protects opens to the original, across a sequence wrap, with CSRCs and extensions", arguments: profiles)
    func opensWhatLibSRTPProtected(profile: SRTPProfile) throws {
        let sender = try SRTPSession(
            profile: profile, keyingMaterial: Self.material(profile), direction: .sender, replayWindowSize: 1024, onOpenSSL: false)
        let receiver = try SRTPRTPOpener(profile: profile, keyingMaterial: Self.material(profile))
        var extended: Int64 = 65_530
        for round in 0..<12 {
            let sequence = UInt16(truncatingIfNeeded: extended)
            let payload = (0..<(round * 97 % 1200)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round) }
            let plain = TestPackets.rtp(
                ssrc: 0xCAFE_0001, sequenceNumber: sequence, payload: payload, csrcs: round % 3 == 1 ? [7, 8] : [], withExtension: round % 2 == 0)
            let (status, protected) = sender.protectRTP(plain)
            #expect(status == .ok)
            let rolloverCounter = UInt32(extended >> 16)
            #expect(Self.open(receiver, protected, rolloverCounter: rolloverCounter) == plain, "round \(round)")
            // The wrong rollover counter is a different IV: the tag cannot verify.
            #expect(Self.open(receiver, protected, rolloverCounter: rolloverCounter + 1) == nil)
            extended += 1
        }
    }

    @Test("altered, truncated, foreign-key and non-RTP packets are refused", arguments: profiles)
    func refusesWhatIsNotAuthentic(profile: SRTPProfile) throws {
        let sender = try SRTPSession(profile: profile, keyingMaterial: Self.material(profile), direction: .sender)
        let receiver = try SRTPRTPOpener(profile: profile, keyingMaterial: Self.material(profile))
        let (_, protected) = sender.protectRTP(TestPackets.rtp(ssrc: 9, sequenceNumber: 100))
        for index in [1, 5, 12, protected.count / 2, protected.count - 1] {
            var altered = protected
            altered[index] ^= 0x01
            #expect(Self.open(receiver, altered, rolloverCounter: 0) == nil, "byte \(index)")
        }
        #expect(Self.open(receiver, Array(protected.dropLast()), rolloverCounter: 0) == nil)
        #expect(Self.open(receiver, Array(protected.prefix(20)), rolloverCounter: 0) == nil)
        #expect(Self.open(receiver, [], rolloverCounter: 0) == nil)
        // A header extension whose length runs past the packet.
        var runaway = protected
        runaway[0] |= 0x10
        #expect(Self.open(receiver, runaway, rolloverCounter: 0) == nil)
        var otherMaterial = Self.material(profile)
        otherMaterial[3] ^= 0xFF
        let stranger = try SRTPRTPOpener(profile: profile, keyingMaterial: otherMaterial)
        #expect(Self.open(stranger, protected, rolloverCounter: 0) == nil)
        // The same receiver still opens the genuine packet after all that.
        #expect(Self.open(receiver, protected, rolloverCounter: 0) != nil)
        #expect(throws: SRTPSessionError.self) { try SRTPRTPOpener(profile: profile, keyingMaterial: [1, 2, 3]) }
    }

    @Test("libsrtp opens what the sealer sealed, across a sequence wrap; a short buffer is refused", arguments: profiles)
    func libSRTPOpensWhatTheSealerSealed(profile: SRTPProfile) throws {
        let sender = try SRTPRTPSealer(profile: profile, keyingMaterial: Self.material(profile))
        let receiver = try SRTPSession(
            profile: profile, keyingMaterial: Self.material(profile), direction: .receiver, replayWindowSize: 1024, onOpenSSL: false)
        var extended: Int64 = 65_533
        for round in 0..<8 {
            let payload = (0..<(round * 151 % 1200)).map { UInt8(truncatingIfNeeded: $0 &+ round) }
            let plain = TestPackets.rtp(ssrc: 0xBEEF, sequenceNumber: UInt16(truncatingIfNeeded: extended), payload: payload, withExtension: round % 2 == 1)
            var buffer = plain + [UInt8](repeating: 0, count: profile.rtpTrailerLength)
            var length = plain.count
            let sealed = buffer.withUnsafeMutableBytes {
                sender.seal($0.baseAddress!, length: &length, capacity: $0.count, rolloverCounter: UInt32(extended >> 16))
            }
            #expect(sealed && length == plain.count + profile.rtpTrailerLength)
            let (status, opened) = receiver.unprotectRTP(Array(buffer[0..<length]))
            #expect(status == .ok, "round \(round)")
            #expect(opened == plain)
            extended += 1
        }
        var tight = TestPackets.rtp(ssrc: 1, sequenceNumber: 1)
        var length = tight.count
        #expect(!tight.withUnsafeMutableBytes { sender.seal($0.baseAddress!, length: &length, capacity: $0.count, rolloverCounter: 0) })
        #expect(length == tight.count)
    }

    @Test("random bytes of any length are refused, never read past their end", arguments: profiles)
    func randomInputIsRefused(profile: SRTPProfile) throws {
        let receiver = try SRTPRTPOpener(profile: profile, keyingMaterial: Self.material(profile))
        var generator = SystemRandomNumberGenerator()
        for round in 0..<3000 {
            let length = round < 64 ? round : Int.random(in: 0...1500, using: &generator)
            // Exactly the packet's bytes, so a read past the end would be a real overrun.
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if length > 0, round % 2 == 0 { bytes[0] = 0x90 | (bytes[0] & 0x0F) }  // version 2 with an extension
            #expect(Self.open(receiver, bytes, rolloverCounter: UInt32(round)) == nil)
        }
    }

    /// What a sender does to sequence numbers: runs, wraps, NACK resends, losses, jumps both
    /// ways (a republish, a resynchronised rewriter). The relay's OpenSSL path must give the
    /// same bytes as libsrtp for every packet, or a libsrtp receiver derives another IV.
    @Test("an SRTPSession sender seals every packet exactly as libsrtp would, whatever the sequence does", arguments: profiles)
    func sessionSenderMatchesLibSRTPByteForByte(profile: SRTPProfile) throws {
        let fast = try SRTPSession(profile: profile, keyingMaterial: Self.material(profile), direction: .sender)
        let reference = try SRTPSession(
            profile: profile, keyingMaterial: Self.material(profile), direction: .sender, replayWindowSize: 1024, onOpenSSL: false)
        #expect(fast.rtpSealer != nil && reference.rtpSealer == nil)
        var sequences: [(UInt32, UInt16)] = []
        var sequence: UInt16 = 65_000
        for step in 0..<6000 {
            switch step % 250 {
            case 17: sequences.append((1, sequence &- 5))  // a NACK answer
            case 91: sequence &+= 40  // a burst of loss
            case 150: sequence &+= 33_000  // a jump forward past half the space
            case 201: sequence &-= 20_000  // a jump back
            default: break
            }
            sequences.append((1, sequence))
            sequences.append((2, UInt16(truncatingIfNeeded: step * 7)))  // a second SSRC, fast
            sequence &+= 1
        }
        for (number, (ssrc, sequenceNumber)) in sequences.enumerated() {
            let plain = TestPackets.rtp(ssrc: ssrc, sequenceNumber: sequenceNumber, payload: [UInt8(truncatingIfNeeded: number), 1, 2, 3])
            let (fastStatus, fastPacket) = fast.protectRTP(plain)
            let (referenceStatus, referencePacket) = reference.protectRTP(plain)
            #expect(fastStatus == referenceStatus)
            if fastPacket != referencePacket {
                Issue.record("packet \(number) (SSRC \(ssrc), sequence \(sequenceNumber)) differs from libsrtp's")
                return
            }
        }
    }

    /// A relay seals a subscriber's tracks in runs, one SSRC after another (the sender keeps the
    /// last SSRC's index apart from the others'), with NACK answers in a run, jumps, and an SSRC
    /// that joins late. Every packet must still be libsrtp's byte for byte.
    @Test("an SRTPSession sender seals as libsrtp would when SSRCs come in runs", arguments: profiles)
    func sessionSenderMatchesLibSRTPInRuns(profile: SRTPProfile) throws {
        let fast = try SRTPSession(profile: profile, keyingMaterial: Self.material(profile), direction: .sender)
        let reference = try SRTPSession(
            profile: profile, keyingMaterial: Self.material(profile), direction: .sender, replayWindowSize: 1024, onOpenSSL: false)
        var next: [UInt32: UInt16] = [1: 65_500, 2: 100, 3: 30_000]
        var sealed = 0
        var refused = 0
        for run in 0..<600 {
            let ssrc = UInt32(run < 200 ? 1 + run % 2 : 1 + run % 3)
            for position in 0..<((run * 7) % 23 + 1) {
                var sequenceNumber = next[ssrc]!
                if position == 3 {
                    sequenceNumber &-= 7  // a NACK answer: an older number again
                } else {
                    next[ssrc] = sequenceNumber &+ 1
                }
                let plain = TestPackets.rtp(ssrc: ssrc, sequenceNumber: sequenceNumber, payload: [UInt8(truncatingIfNeeded: run), UInt8(position)])
                let (fastStatus, fastPacket) = fast.protectRTP(plain)
                let (referenceStatus, referencePacket) = reference.protectRTP(plain)
                if fastStatus != referenceStatus || fastPacket != referencePacket {
                    Issue.record(
                        "run \(run), packet \(position) (SSRC \(ssrc), sequence \(sequenceNumber)): \(fastStatus) against libsrtp's \(referenceStatus)")
                    return
                }
                if fastStatus == .ok { sealed += 1 } else { refused += 1 }
            }
            if run % 50 == 49 { next[ssrc]! &+= 40_000 }  // a jump past half the sequence space
        }
        // Both outcomes were compared: sealed, and refused as too old after a jump.
        #expect(sealed > 4000 && refused > 100, "\(sealed) sealed, \(refused) refused")
    }

    /// What a receiver meets: runs and wraps, duplicates, late and very late packets, jumps,
    /// altered and truncated packets, new SSRCs. Status and bytes must be libsrtp's each time.
    @Test("an SRTPSession receiver opens, refuses and replays exactly as libsrtp does", arguments: profiles)
    func sessionReceiverMatchesLibSRTP(profile: SRTPProfile) throws {
        let material = Self.material(profile)
        let sender = try SRTPSession(
            profile: profile, keyingMaterial: material, direction: .sender, replayWindowSize: 0x7FFF, onOpenSSL: false)
        let fast = try SRTPSession(profile: profile, keyingMaterial: material, direction: .receiver, replayWindowSize: 100)
        let reference = try SRTPSession(
            profile: profile, keyingMaterial: material, direction: .receiver, replayWindowSize: 100, onOpenSSL: false)
        #expect(fast.rtpOpener != nil && reference.rtpOpener == nil)
        var protected: [[UInt8]] = []
        var sequence: UInt16 = 64_000
        for step in 0..<5000 {
            let ssrc: UInt32 = step % 7 == 3 ? 0xA0 + UInt32(step % 3) : 0x55
            if ssrc == 0x55 {
                switch step % 300 {
                case 40: sequence &+= 90  // loss
                case 120: sequence &+= 34_000  // a jump past half the space
                case 200: sequence &-= 3_000  // a jump back, older than the window
                default: break
                }
                sequence &+= 1
            }
            let number = ssrc == 0x55 ? sequence : UInt16(truncatingIfNeeded: step * 13)
            let (status, packet) = sender.protectRTP(TestPackets.rtp(ssrc: ssrc, sequenceNumber: number, payload: [UInt8(truncatingIfNeeded: step), 9]))
            if status == .ok { protected.append(packet) }
        }
        var deliveries: [[UInt8]] = []
        for (position, packet) in protected.enumerated() {
            deliveries.append(packet)
            switch position % 97 {
            case 5: deliveries.append(packet)  // duplicate
            case 11 where position > 60: deliveries.append(protected[position - 50])  // late, within the window
            case 17 where position > 400: deliveries.append(protected[position - 300])  // too late
            case 23:
                var altered = packet
                altered[altered.count - 3] ^= 0x40
                deliveries.append(altered)  // not authentic
            case 29: deliveries.append(Array(packet.prefix(14)))  // truncated
            default: break
            }
        }
        var outcomes: [String: Int] = [:]
        for (number, packet) in deliveries.enumerated() {
            let (fastStatus, fastPlain) = fast.unprotectRTP(packet)
            let (referenceStatus, referencePlain) = reference.unprotectRTP(packet)
            if fastStatus != referenceStatus || (fastStatus == .ok && fastPlain != referencePlain) {
                Issue.record("delivery \(number): \(fastStatus) against libsrtp's \(referenceStatus)")
                return
            }
            outcomes["\(fastStatus)", default: 0] += 1
        }
        // Every kind of outcome happened, so the comparison covered each of them.
        #expect((outcomes["ok"] ?? 0) > 2000, "\(outcomes)")
        #expect((outcomes["replayed"] ?? 0) > 50)
        #expect((outcomes["authenticationFailed"] ?? 0) > 10)
        #expect((outcomes["malformed"] ?? 0) > 10)
    }

    /// An RTCP packet from `ssrc` with `blocks` report blocks whose bytes vary with `seed`.
    static func rtcp(ssrc: UInt32, blocks: Int, seed: Int) -> [UInt8] {
        var packet: [UInt8] = [0x80 | UInt8(blocks), 201, 0, UInt8(1 + 6 * blocks)]
        packet += [UInt8(ssrc >> 24), UInt8(truncatingIfNeeded: ssrc >> 16), UInt8(truncatingIfNeeded: ssrc >> 8), UInt8(truncatingIfNeeded: ssrc)]
        packet += (0..<(24 * blocks)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ seed) }
        return packet
    }

    /// SRTCP numbers each sender SSRC on its own from 1; the bytes must be libsrtp's for every
    /// packet, or a libsrtp receiver derives another IV.
    @Test("an SRTPSession sender seals every RTCP packet exactly as libsrtp would", arguments: profiles)
    func sessionRTCPSenderMatchesLibSRTP(profile: SRTPProfile) throws {
        let fast = try SRTPSession(profile: profile, keyingMaterial: Self.material(profile), direction: .sender)
        let reference = try SRTPSession(
            profile: profile, keyingMaterial: Self.material(profile), direction: .sender, replayWindowSize: 1024, onOpenSSL: false)
        #expect(fast.rtcpTransform != nil && reference.rtcpTransform == nil)
        for number in 0..<700 {
            let ssrc: UInt32 = number % 5 == 0 ? 0xBEEF : (number % 3 == 0 ? 0x1234_5678 : 7)
            let packet = Self.rtcp(ssrc: ssrc, blocks: number % 4, seed: number)
            let (fastStatus, fastPacket) = fast.protectRTCP(packet)
            let (referenceStatus, referencePacket) = reference.protectRTCP(packet)
            #expect(fastStatus == .ok && referenceStatus == .ok)
            if fastPacket != referencePacket {
                Issue.record("RTCP packet \(number) (SSRC \(ssrc)) differs from libsrtp's")
                return
            }
        }
    }

    /// What an SRTCP receiver meets: duplicates, late packets inside and outside libsrtp's
    /// 128-packet window, altered and truncated packets, a cleared E flag, new SSRCs. Status and
    /// bytes must be libsrtp's each time.
    @Test("an SRTPSession receiver opens, refuses and replays RTCP exactly as libsrtp does", arguments: profiles)
    func sessionRTCPReceiverMatchesLibSRTP(profile: SRTPProfile) throws {
        let material = Self.material(profile)
        let sender = try SRTPSession(profile: profile, keyingMaterial: material, direction: .sender, replayWindowSize: 1024, onOpenSSL: false)
        let fast = try SRTPSession(profile: profile, keyingMaterial: material, direction: .receiver)
        let reference = try SRTPSession(profile: profile, keyingMaterial: material, direction: .receiver, replayWindowSize: 1024, onOpenSSL: false)
        #expect(fast.rtcpTransform != nil && reference.rtcpTransform == nil)
        var protected: [[UInt8]] = []
        for number in 0..<1500 {
            let ssrc: UInt32 = number % 11 == 4 ? 0xA0 + UInt32(number % 3) : 0x55
            let (status, packet) = sender.protectRTCP(Self.rtcp(ssrc: ssrc, blocks: number % 3, seed: number))
            #expect(status == .ok)
            protected.append(packet)
        }
        // Packets the sender numbered but the receiver never sees, so the window jumps.
        protected.removeSubrange(600..<900)
        var deliveries: [[UInt8]] = []
        for (position, packet) in protected.enumerated() {
            deliveries.append(packet)
            switch position % 53 {
            case 3: deliveries.append(packet)  // duplicate
            case 9 where position > 100: deliveries.append(protected[position - 90])  // late, inside 128
            case 15 where position > 300: deliveries.append(protected[position - 250])  // too late
            case 21:
                var altered = packet
                altered[altered.count / 2] ^= 0x10
                deliveries[deliveries.count - 1] = altered  // not authentic
            case 27: deliveries.append(Array(packet.prefix(10)))  // truncated
            case 33:
                var cleared = packet
                let flag = profile == .aeadAES128GCM ? cleared.count - 4 : cleared.count - profile.rtcpTrailerLength
                cleared[flag] &= 0x7F
                deliveries[deliveries.count - 1] = cleared  // no E flag
            default: break
            }
        }
        var outcomes: [String: Int] = [:]
        for (number, packet) in deliveries.enumerated() {
            let (fastStatus, fastPlain) = fast.unprotectRTCP(packet)
            let (referenceStatus, referencePlain) = reference.unprotectRTCP(packet)
            if fastStatus != referenceStatus || (fastStatus == .ok && fastPlain != referencePlain) {
                Issue.record("RTCP delivery \(number): \(fastStatus) against libsrtp's \(referenceStatus)")
                return
            }
            outcomes["\(fastStatus)", default: 0] += 1
        }
        // Every kind of outcome happened, so the comparison covered each of them.
        #expect((outcomes["ok"] ?? 0) > 1000, "\(outcomes)")
        #expect((outcomes["replayed"] ?? 0) > 20, "\(outcomes)")
        #expect((outcomes["authenticationFailed"] ?? 0) > 10, "\(outcomes)")
        #expect((outcomes["malformed"] ?? 0) > 10, "\(outcomes)")
        // AES-CM refuses a cleared E flag with a status of its own; GCM takes the packet as sent
        // unencrypted, and its tag then fails.
        #expect(outcomes.count == (profile == .aesCM128HMACSHA1_80 ? 5 : 4), "\(outcomes)")
    }

    /// The SRTCP window slides by the jump past its end: jumps of every size around its 128
    /// packets and its two 64-bit halves, each followed by late packets at every distance around
    /// the same edges, must get libsrtp's statuses.
    @Test("the SRTCP replay window slides as libsrtp's does, for jumps and late packets around every edge", arguments: profiles)
    func rtcpWindowEdges(profile: SRTPProfile) throws {
        let material = Self.material(profile)
        let sender = try SRTPSession(profile: profile, keyingMaterial: material, direction: .sender, replayWindowSize: 1024, onOpenSSL: false)
        let fast = try SRTPSession(profile: profile, keyingMaterial: material, direction: .receiver)
        let reference = try SRTPSession(profile: profile, keyingMaterial: material, direction: .receiver, replayWindowSize: 1024, onOpenSSL: false)
        var sent: [[UInt8]] = []
        var compared = 0
        func deliver(_ packet: [UInt8]) -> Bool {
            let (fastStatus, fastPlain) = fast.unprotectRTCP(packet)
            let (referenceStatus, referencePlain) = reference.unprotectRTCP(packet)
            compared += 1
            guard fastStatus == referenceStatus, fastStatus != .ok || fastPlain == referencePlain else {
                Issue.record("delivery \(compared): \(fastStatus) against libsrtp's \(referenceStatus)")
                return false
            }
            return true
        }
        for jump in [1, 2, 63, 64, 65, 100, 126, 127, 128, 129, 130, 191, 192, 193, 255, 256, 257, 300] {
            for _ in 0..<jump {
                let (status, packet) = sender.protectRTCP(Self.rtcp(ssrc: 0x77, blocks: 1, seed: sent.count))
                #expect(status == .ok)
                sent.append(packet)
            }
            guard deliver(sent[sent.count - 1]) else { return }
            for distance in [1, 2, 63, 64, 65, 126, 127, 128, 129, 200] where distance < sent.count {
                guard deliver(sent[sent.count - 1 - distance]) else { return }
            }
        }
        #expect(compared > 150)
    }
}
