import SecureTransport
import Testing

/// Behaviour of ``SRTPSession`` beyond byte-exact output: round trips, rejection of
/// forged, replayed and broken packets, and buffer limits.
@Suite("SRTPSession protect and unprotect")
struct SRTPSessionTests {
    /// A fixed, non-trivial keying material of the right length for `profile`.
    static func keyingMaterial(for profile: SRTPProfile, seed: UInt8 = 0x5A) -> [UInt8] {
        (0..<profile.keyingMaterialLength).map { UInt8(truncatingIfNeeded: Int(seed) &* 7 &+ $0 &* 13) }
    }

    static func pair(_ profile: SRTPProfile, replayWindowSize: Int = 1024) throws -> (sender: SRTPSession, receiver: SRTPSession) {
        let material = keyingMaterial(for: profile)
        return (
            try SRTPSession(profile: profile, keyingMaterial: material, direction: .sender),
            try SRTPSession(
                profile: profile, keyingMaterial: material, direction: .receiver, replayWindowSize: replayWindowSize)
        )
    }

    static let ssrcs: [UInt32] = [0x1111_1111, 0x2222_2222, 0xDEAD_BEEF, 0x0000_0001]

    @Test("RTP round trip with several SSRCs interleaved in one session", arguments: SRTPProfile.allCases)
    func rtpRoundTrip(profile: SRTPProfile) throws {
        let (sender, receiver) = try Self.pair(profile)
        for sequenceNumber in UInt16(100)..<110 {
            for ssrc in Self.ssrcs {
                let packet = TestPackets.rtp(
                    ssrc: ssrc, sequenceNumber: sequenceNumber,
                    payload: Array(repeating: UInt8(truncatingIfNeeded: ssrc), count: 50))
                let (protectStatus, protected) = sender.protectRTP(packet)
                #expect(protectStatus == .ok)
                #expect(protected.count == packet.count + profile.rtpTrailerLength)
                #expect(protected[..<12] == packet[..<12])
                #expect(protected[12..<packet.count] != packet[12...])
                let (unprotectStatus, plain) = receiver.unprotectRTP(protected)
                #expect(unprotectStatus == .ok)
                #expect(plain == packet)
            }
        }
    }

    @Test("RTCP round trip with several SSRCs in one session", arguments: SRTPProfile.allCases)
    func rtcpRoundTrip(profile: SRTPProfile) throws {
        let (sender, receiver) = try Self.pair(profile)
        for _ in 0..<3 {
            for ssrc in Self.ssrcs {
                let packet = TestPackets.rtcpReceiverReport(ssrc: ssrc)
                let (protectStatus, protected) = sender.protectRTCP(packet)
                #expect(protectStatus == .ok)
                #expect(protected.count == packet.count + profile.rtcpTrailerLength)
                #expect(protected[8..<packet.count] != packet[8...])
                let (unprotectStatus, plain) = receiver.unprotectRTCP(protected)
                #expect(unprotectStatus == .ok)
                #expect(plain == packet)
            }
        }
    }

    @Test("A receiver with another key rejects packets as unauthenticated", arguments: SRTPProfile.allCases)
    func wrongKey(profile: SRTPProfile) throws {
        let sender = try SRTPSession(
            profile: profile, keyingMaterial: Self.keyingMaterial(for: profile), direction: .sender)
        let receiver = try SRTPSession(
            profile: profile, keyingMaterial: Self.keyingMaterial(for: profile, seed: 0x11), direction: .receiver)
        let rtp = sender.protectRTP(TestPackets.rtp(ssrc: 42, sequenceNumber: 1))
        let rtcp = sender.protectRTCP(TestPackets.rtcpReceiverReport(ssrc: 42))
        #expect(rtp.status == .ok && rtcp.status == .ok)
        #expect(receiver.unprotectRTP(rtp.packet).status == .authenticationFailed)
        #expect(receiver.unprotectRTCP(rtcp.packet).status == .authenticationFailed)
    }

    /// Byte positions to flip: in the header, in the payload, in the tag (negative counts from the end).
    static let tamperedOffsets = [1, 8, 13, 20, -1]

    @Test(
        "Changing any one byte of a protected RTP packet fails authentication",
        arguments: SRTPProfile.allCases, tamperedOffsets)
    func tamperedRTP(profile: SRTPProfile, offset: Int) throws {
        let (sender, receiver) = try Self.pair(profile)
        var (status, protected) = sender.protectRTP(TestPackets.rtp(ssrc: 7, sequenceNumber: 500))
        #expect(status == .ok)
        protected[offset >= 0 ? offset : protected.count + offset] ^= 0x04
        #expect(receiver.unprotectRTP(protected).status == .authenticationFailed)
    }

    @Test(
        "Changing any one byte of a protected RTCP packet fails authentication",
        arguments: SRTPProfile.allCases, tamperedOffsets)
    func tamperedRTCP(profile: SRTPProfile, offset: Int) throws {
        let (sender, receiver) = try Self.pair(profile)
        var (status, protected) = sender.protectRTCP(TestPackets.rtcpReceiverReport(ssrc: 7))
        #expect(status == .ok)
        protected[offset >= 0 ? offset : protected.count + offset] ^= 0x04
        #expect(receiver.unprotectRTCP(protected).status == .authenticationFailed)
    }

    @Test("A receiver reports a second copy of a packet as replayed", arguments: SRTPProfile.allCases)
    func replayed(profile: SRTPProfile) throws {
        let (sender, receiver) = try Self.pair(profile)
        let rtp = sender.protectRTP(TestPackets.rtp(ssrc: 9, sequenceNumber: 77)).packet
        let rtcp = sender.protectRTCP(TestPackets.rtcpReceiverReport(ssrc: 9)).packet
        #expect(receiver.unprotectRTP(rtp).status == .ok)
        #expect(receiver.unprotectRTP(rtp).status == .replayed)
        #expect(receiver.unprotectRTCP(rtcp).status == .ok)
        #expect(receiver.unprotectRTCP(rtcp).status == .replayed)
    }

    @Test("A packet older than the replay window is reported as replayed", arguments: SRTPProfile.allCases)
    func olderThanWindow(profile: SRTPProfile) throws {
        let (sender, receiver) = try Self.pair(profile, replayWindowSize: 64)
        let old = sender.protectRTP(TestPackets.rtp(ssrc: 3, sequenceNumber: 1000)).packet
        let new = sender.protectRTP(TestPackets.rtp(ssrc: 3, sequenceNumber: 1200)).packet
        #expect(receiver.unprotectRTP(new).status == .ok)
        #expect(receiver.unprotectRTP(old).status == .replayed)
    }

    @Test("Reordering inside the replay window is accepted", arguments: SRTPProfile.allCases)
    func reorderedWithinWindow(profile: SRTPProfile) throws {
        let (sender, receiver) = try Self.pair(profile)
        let packets = (UInt16(10)..<20).map { sender.protectRTP(TestPackets.rtp(ssrc: 4, sequenceNumber: $0)).packet }
        for packet in packets.reversed() {
            #expect(receiver.unprotectRTP(packet).status == .ok)
        }
    }

    @Test("A sender protects the same sequence number again for retransmission", arguments: SRTPProfile.allCases)
    func repeatedTransmission(profile: SRTPProfile) throws {
        let (sender, receiver) = try Self.pair(profile)
        let packet = TestPackets.rtp(ssrc: 5, sequenceNumber: 300)
        let first = sender.protectRTP(packet)
        _ = sender.protectRTP(TestPackets.rtp(ssrc: 5, sequenceNumber: 301))
        let again = sender.protectRTP(packet)
        #expect(first.status == .ok)
        #expect(again.status == .ok)
        #expect(again.packet == first.packet)
        #expect(receiver.unprotectRTP(again.packet).status == .ok)
    }

    @Test("Protecting needs room for the trailer, and writes nothing past it", arguments: SRTPProfile.allCases)
    func capacity(profile: SRTPProfile) throws {
        let sender = try SRTPSession(
            profile: profile, keyingMaterial: Self.keyingMaterial(for: profile), direction: .sender)
        for (isRTCP, packet, trailer) in [
            (false, TestPackets.rtp(ssrc: 6, sequenceNumber: 1), profile.rtpTrailerLength),
            (true, TestPackets.rtcpReceiverReport(ssrc: 6), profile.rtcpTrailerLength),
        ] {
            let guardBytes = [UInt8](repeating: 0xA5, count: 64)
            var buffer = packet + guardBytes
            var length = packet.count
            let tooSmall = buffer.withUnsafeMutableBytes { bytes in
                isRTCP
                    ? sender.protectRTCP(bytes.baseAddress!, length: &length, capacity: packet.count + trailer - 1)
                    : sender.protectRTP(bytes.baseAddress!, length: &length, capacity: packet.count + trailer - 1)
            }
            #expect(tooSmall == .malformed)
            #expect(length == packet.count)
            #expect(buffer == packet + guardBytes)

            let exact = buffer.withUnsafeMutableBytes { bytes in
                isRTCP
                    ? sender.protectRTCP(bytes.baseAddress!, length: &length, capacity: packet.count + trailer)
                    : sender.protectRTP(bytes.baseAddress!, length: &length, capacity: packet.count + trailer)
            }
            #expect(exact == .ok)
            #expect(length == packet.count + trailer)
            #expect(Array(buffer[length...]) == Array(guardBytes.dropFirst(trailer)))
        }
    }

    @Test("Lengths below a header are rejected before reaching libsrtp", arguments: SRTPProfile.allCases)
    func shortPacketsToProtect(profile: SRTPProfile) throws {
        let sender = try SRTPSession(
            profile: profile, keyingMaterial: Self.keyingMaterial(for: profile), direction: .sender)
        var buffer = [UInt8](repeating: 0x80, count: 64)
        for shortLength in [-1, 0, 7, 11] {
            var length = shortLength
            let status = buffer.withUnsafeMutableBytes {
                sender.protectRTP($0.baseAddress!, length: &length, capacity: 64)
            }
            #expect(status == .malformed)
            #expect(length == shortLength)
        }
        for shortLength in [-1, 0, 7] {
            var length = shortLength
            let status = buffer.withUnsafeMutableBytes {
                sender.protectRTCP($0.baseAddress!, length: &length, capacity: 64)
            }
            #expect(status == .malformed)
            #expect(length == shortLength)
        }
    }

    /// Garbage that looks like RTP/RTCP in its first byte, so libsrtp's parsers get exercised.
    static func garbage(length: Int) -> [UInt8] {
        (0..<length).map { $0 == 0 ? 0x80 : UInt8(truncatingIfNeeded: $0 &* 151 &+ 29) }
    }

    @Test(
        "Garbage of any short length never unprotects and never crashes",
        arguments: SRTPProfile.allCases, 0...40)
    func garbageInput(profile: SRTPProfile, length: Int) throws {
        let (sender, receiver) = try Self.pair(profile)
        let packet = Self.garbage(length: length)
        let rtp = receiver.unprotectRTP(packet)
        let rtcp = receiver.unprotectRTCP(packet)
        #expect(rtp.status != .ok)
        #expect(rtcp.status != .ok)
        #expect(rtp.packet.count == length && rtcp.packet.count == length)
        // Protecting garbage either works (it is a well-formed header) or is refused.
        let protected = sender.protectRTP(packet)
        if length < 12 {
            #expect(protected.status == .malformed)
        } else {
            #expect(protected.status == .ok || protected.status == .malformed)
        }
    }

    @Test("Every truncation of a protected packet is rejected", arguments: SRTPProfile.allCases)
    func truncatedInput(profile: SRTPProfile) throws {
        let (sender, receiver) = try Self.pair(profile)
        let rtp = sender.protectRTP(TestPackets.rtp(ssrc: 8, sequenceNumber: 9, csrcs: [1], withExtension: true)).packet
        let rtcp = sender.protectRTCP(TestPackets.rtcpReceiverReport(ssrc: 8)).packet
        for length in 0..<rtp.count {
            #expect(receiver.unprotectRTP(Array(rtp.prefix(length))).status != .ok)
        }
        for length in 0..<rtcp.count {
            #expect(receiver.unprotectRTCP(Array(rtcp.prefix(length))).status != .ok)
        }
        // The untouched packets still pass afterwards: failures left no state behind.
        #expect(receiver.unprotectRTP(rtp).status == .ok)
        #expect(receiver.unprotectRTCP(rtcp).status == .ok)
    }

    @Test("Keying material of the wrong length is refused", arguments: SRTPProfile.allCases)
    func wrongKeyingMaterialLength(profile: SRTPProfile) {
        for length in [0, profile.keyingMaterialLength - 1, profile.keyingMaterialLength + 1] {
            #expect(
                throws: SRTPSessionError.invalidKeyingMaterialLength(
                    expected: profile.keyingMaterialLength, actual: length)
            ) {
                _ = try SRTPSession(
                    profile: profile, keyingMaterial: [UInt8](repeating: 1, count: length), direction: .sender)
            }
        }
    }

    @Test("Replay window sizes outside libsrtp's range are refused", arguments: [0, 63, 0x8000, -5])
    func replayWindowOutOfRange(size: Int) {
        let profile = SRTPProfile.aeadAES128GCM
        #expect(throws: SRTPSessionError.replayWindowSizeOutOfRange(size)) {
            _ = try SRTPSession(
                profile: profile, keyingMaterial: Self.keyingMaterial(for: profile), direction: .receiver,
                replayWindowSize: size)
        }
    }

    @Test("A session created here can be handed to and used by another thread")
    func handoff() async throws {
        let profile = SRTPProfile.aesCM128HMACSHA1_80
        let packet = TestPackets.rtp(ssrc: 10, sequenceNumber: 10)
        let handoff = SRTPSessionHandoff(
            try SRTPSession(profile: profile, keyingMaterial: Self.keyingMaterial(for: profile), direction: .sender))
        let protected = await Task.detached {
            let session = handoff.take()
            return session.protectRTP(packet)
        }.value
        let receiver = try SRTPSession(
            profile: profile, keyingMaterial: Self.keyingMaterial(for: profile), direction: .receiver)
        #expect(protected.status == .ok)
        #expect(receiver.unprotectRTP(protected.packet).packet == packet)
    }

    @Test("Initialising the library repeatedly and concurrently is harmless")
    func concurrentInitialization() async {
        let statuses = await withTaskGroup(of: SRTPStatus.self) { group in
            for _ in 0..<8 {
                group.addTask { SRTPLibrary.initialize() }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: .ok, count: 8))
    }
}
