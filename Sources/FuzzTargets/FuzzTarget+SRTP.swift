import SecureTransport

extension FuzzTarget {
    /// Keying material for the `srtp` target: the input is a script of packets, not keys.
    private static func srtpMaterial(_ profile: SRTPProfile) -> [UInt8] {
        (0..<profile.keyingMaterialLength).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 7) }
    }

    /// The input is a script. Its first byte picks the profile (its low bit: AES-GCM or AES-CM)
    /// and sets the receivers' replay window (the other seven bits); then each step of
    /// four bytes picks an SSRC, moves its sequence number by a signed amount and says what
    /// becomes of the packet: delivered, delivered twice, altered at a byte, truncated, or
    /// replaced by the step's own bytes. The OpenSSL sender must seal every packet as libsrtp's
    /// sender does, also when the payload after a head of the step's choosing lies elsewhere, and
    /// the OpenSSL receiver must give libsrtp's status, and its bytes when it opens, for every
    /// delivery. Each step does the same with an RTCP packet from its SSRC; the oldest of the
    /// last 200 delivered is the late one, which falls outside SRTCP's 128-packet window.
    static func runSRTP(_ script: UnsafeRawBufferPointer) {
        guard let first = script.first else { return }
        let profile: SRTPProfile = first & 1 == 0 ? .aeadAES128GCM : .aesCM128HMACSHA1_80
        let material = srtpMaterial(profile)
        let window = 64 + Int(first >> 1) * 32
        guard let fastSender = try? SRTPSession(profile: profile, keyingMaterial: material, direction: .sender),
            let splitSender = try? SRTPSession(profile: profile, keyingMaterial: material, direction: .sender),
            let referenceSender = try? SRTPSession(
                profile: profile, keyingMaterial: material, direction: .sender, replayWindowSize: 1024, onOpenSSL: false),
            let fastReceiver = try? SRTPSession(profile: profile, keyingMaterial: material, direction: .receiver, replayWindowSize: window),
            let referenceReceiver = try? SRTPSession(
                profile: profile, keyingMaterial: material, direction: .receiver, replayWindowSize: window, onOpenSSL: false)
        else { preconditionFailure("SRTP sessions could not be created") }
        var sequences: [UInt16] = [0, 60_000, 65_530, 1000]
        var delivered: [[UInt8]] = []
        var deliveredRTCP: [[UInt8]] = []
        var offset = 1
        while offset + 4 <= script.count {
            let step = (script[offset], script[offset + 1], script[offset + 2], script[offset + 3])
            offset += 4
            let stream = Int(step.0 & 3)
            let move = Int16(bitPattern: UInt16(step.1) << 8 | UInt16(step.2))
            sequences[stream] = sequences[stream] &+ UInt16(bitPattern: move)
            var plain: [UInt8] = [
                0x80, 96, UInt8(sequences[stream] >> 8), UInt8(truncatingIfNeeded: sequences[stream]), 0, 0, 0, 1, 0, 0, 0, UInt8(stream + 1),
            ]
            plain += [UInt8](repeating: step.3, count: Int(step.3 % 64))
            let fast = protect(fastSender, plain)
            let reference = protect(referenceSender, plain)
            precondition(fast.status == reference.status && fast.packet == reference.packet, "the OpenSSL sender differs from libsrtp's")
            let split = protect(splitSender, plain, headLength: 12 + Int(step.2) % (plain.count - 11))
            precondition(split.status == reference.status && split.packet == reference.packet, "sealing the payload from elsewhere differs from libsrtp's")
            guard reference.status == .ok else { continue }
            var deliveries = [reference.packet]
            switch step.3 % 6 {
            case 1: deliveries.append(reference.packet)
            case 2:
                var altered = reference.packet
                altered[Int(step.1) % altered.count] ^= step.2 | 1
                deliveries = [altered]
            case 3: deliveries = [Array(reference.packet.prefix(Int(step.2) % reference.packet.count))]
            case 4: deliveries = [[step.0, step.1, step.2, step.3] + reference.packet.dropFirst(4)]
            case 5: if let earlier = delivered.last { deliveries.append(earlier) }
            default: break
            }
            for packet in deliveries {
                let opened = unprotect(fastReceiver, packet)
                let expected = unprotect(referenceReceiver, packet)
                precondition(
                    opened.status == expected.status,
                    "the OpenSSL receiver said \(opened.status) where libsrtp said \(expected.status) (\(packet.count) bytes, header \(packet.prefix(12)))")
                precondition(opened.status != .ok || opened.packet == expected.packet, "the OpenSSL receiver's bytes differ from libsrtp's")
            }
            delivered.append(reference.packet)
            if delivered.count > 64 { delivered.removeFirst() }
            checkRTCP(step, stream: stream, senders: (fastSender, referenceSender), receivers: (fastReceiver, referenceReceiver), delivered: &deliveredRTCP)
        }
    }

    /// The same step for SRTCP: an RTCP packet from the step's SSRC, sealed by both senders (the
    /// bytes must agree), then delivered as the step says to both receivers (statuses and bytes
    /// must agree).
    private static func checkRTCP(
        _ step: (UInt8, UInt8, UInt8, UInt8), stream: Int, senders: (SRTPSession, SRTPSession), receivers: (SRTPSession, SRTPSession),
        delivered: inout [[UInt8]]
    ) {
        let blocks = Int(step.3 % 3)
        var plain: [UInt8] = [0x80 | UInt8(blocks), 201, 0, UInt8(1 + 6 * blocks), 0, 0, 0, UInt8(stream + 1)]
        plain += [UInt8](repeating: step.2, count: 24 * blocks)
        let fast = protectRTCP(senders.0, plain)
        let reference = protectRTCP(senders.1, plain)
        precondition(fast.status == reference.status && fast.packet == reference.packet, "the OpenSSL SRTCP sender differs from libsrtp's")
        guard reference.status == .ok else { return }
        var deliveries = [reference.packet]
        switch step.1 % 6 {
        case 1: deliveries.append(reference.packet)
        case 2:
            var altered = reference.packet
            altered[Int(step.2) % altered.count] ^= step.3 | 1
            deliveries = [altered]
        case 3: deliveries = [Array(reference.packet.prefix(Int(step.2) % reference.packet.count))]
        case 4: if let earlier = delivered.first { deliveries.append(earlier) }
        default: break
        }
        for packet in deliveries {
            let opened = unprotectRTCP(receivers.0, packet)
            let expected = unprotectRTCP(receivers.1, packet)
            precondition(opened.status == expected.status, "the OpenSSL SRTCP receiver said \(opened.status) where libsrtp said \(expected.status)")
            precondition(opened.status != .ok || opened.packet == expected.packet, "the OpenSSL SRTCP receiver's bytes differ from libsrtp's")
        }
        delivered.append(reference.packet)
        if delivered.count > 200 { delivered.removeFirst() }
    }

    private static func protectRTCP(_ session: SRTPSession, _ plain: [UInt8]) -> (status: SRTPStatus, packet: [UInt8]) {
        var buffer = plain + [UInt8](repeating: 0, count: 32)
        var length = plain.count
        let status = buffer.withUnsafeMutableBytes { session.protectRTCP($0.baseAddress!, length: &length, capacity: $0.count) }
        return (status, status == .ok ? Array(buffer.prefix(length)) : [])
    }

    private static func unprotectRTCP(_ session: SRTPSession, _ packet: [UInt8]) -> (status: SRTPStatus, packet: [UInt8]) {
        // Never an empty buffer: libsrtp may read the header before checking the length.
        var buffer = packet + [0]
        var length = packet.count
        let status = buffer.withUnsafeMutableBytes { session.unprotectRTCP($0.baseAddress!, length: &length) }
        return (status, status == .ok ? Array(buffer.prefix(length)) : [])
    }

    private static func protect(_ session: SRTPSession, _ plain: [UInt8]) -> (status: SRTPStatus, packet: [UInt8]) {
        var buffer = plain + [UInt8](repeating: 0, count: 32)
        var length = plain.count
        let status = buffer.withUnsafeMutableBytes { session.protectRTP($0.baseAddress!, length: &length, capacity: $0.count) }
        return (status, status == .ok ? Array(buffer.prefix(length)) : [])
    }

    /// Seals `plain` with its first `headLength` bytes in the output buffer and the rest read
    /// from a buffer of its own.
    private static func protect(_ session: SRTPSession, _ plain: [UInt8], headLength: Int) -> (status: SRTPStatus, packet: [UInt8]) {
        var buffer = Array(plain.prefix(headLength)) + [UInt8](repeating: 0, count: plain.count - headLength + 32)
        let tail = Array(plain.dropFirst(headLength)) + [0]
        var length = 0
        let status = buffer.withUnsafeMutableBytes { out in
            tail.withUnsafeBytes {
                session.protectRTP(
                    out.baseAddress!, headLength: headLength, tail: $0.baseAddress!, tailLength: plain.count - headLength, length: &length, capacity: out.count)
            }
        }
        return (status, status == .ok ? Array(buffer.prefix(length)) : [])
    }

    private static func unprotect(_ session: SRTPSession, _ packet: [UInt8]) -> (status: SRTPStatus, packet: [UInt8]) {
        // Never an empty buffer: libsrtp may read the header before checking the length.
        var buffer = packet + [0]
        var length = packet.count
        let status = buffer.withUnsafeMutableBytes { session.unprotectRTP($0.baseAddress!, length: &length) }
        return (status, status == .ok ? Array(buffer.prefix(length)) : [])
    }
}
