import RTPWire

/// RTP packets as a test writes them: a fixed header and a payload, VP8 keyframes and delta
/// frames recognisable by the relay's keyframe detector.
enum ScriptedPacket {
    /// A VP8 payload: the one-byte descriptor (start of partition 0) and a frame tag whose P bit
    /// says keyframe (0) or not (1), then filler.
    static func vp8Payload(keyframe: Bool, size: Int = 40) -> [UInt8] {
        var payload: [UInt8] = [0x10, keyframe ? 0x00 : 0x01]
        if keyframe { payload += [0x00, 0x00, 0x9D, 0x01, 0x2A, 0x40, 0x01, 0xF0, 0x00] }
        while payload.count < size { payload.append(UInt8(truncatingIfNeeded: payload.count)) }
        return payload
    }

    /// An RTP packet with a 12-byte header.
    static func rtp(ssrc: UInt32, sequenceNumber: UInt16, timestamp: UInt32, payloadType: UInt8 = 96, marker: Bool = false, payload: [UInt8]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: RTPHeader.fixedHeaderLength + payload.count)
        bytes.withUnsafeMutableBytes { buffer in
            _ = RTPHeaderWriter.write(marker: marker, payloadType: payloadType, sequenceNumber: sequenceNumber, timestamp: timestamp, ssrc: ssrc, into: buffer)
        }
        bytes.replaceSubrange(RTPHeader.fixedHeaderLength..., with: payload)
        return bytes
    }

    static func video(ssrc: UInt32, sequenceNumber: UInt16, timestamp: UInt32, keyframe: Bool, payloadType: UInt8 = 96) -> [UInt8] {
        rtp(ssrc: ssrc, sequenceNumber: sequenceNumber, timestamp: timestamp, payloadType: payloadType, marker: true, payload: vp8Payload(keyframe: keyframe))
    }

    static func audio(ssrc: UInt32, sequenceNumber: UInt16, timestamp: UInt32) -> [UInt8] {
        rtp(ssrc: ssrc, sequenceNumber: sequenceNumber, timestamp: timestamp, payloadType: 111, payload: [UInt8](repeating: 0xAB, count: 60))
    }

    /// The header of a sent datagram, parsed.
    static func header(of bytes: [UInt8]) -> RTPHeader? {
        bytes.withUnsafeBytes { RTPHeader.parse($0) }
    }
}

extension ScriptedPacket {
    /// A generic NACK (RFC 4585) from a subscriber for `packetID` and the bitmask after it.
    static func nack(mediaSSRC: UInt32, packetID: UInt16, lostBitmask: UInt16 = 0) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: RTCPWriter.genericNACKLength)
        _ = bytes.withUnsafeMutableBytes {
            RTCPWriter.writeGenericNACK(senderSSRC: 0xFEED, mediaSSRC: mediaSSRC, packetID: packetID, lostBitmask: lostBitmask, into: $0, at: 0)
        }
        return bytes
    }

    /// One NACK packet carrying every entry given (packet id, bitmask of the 16 after it), in order.
    static func nack(mediaSSRC: UInt32, entries: [(packetID: UInt16, lostBitmask: UInt16)]) -> [UInt8] {
        var bytes: [UInt8] = [0x81, 205] + [UInt8(truncatingIfNeeded: (2 + entries.count) >> 8), UInt8(truncatingIfNeeded: 2 + entries.count)]
        for word: UInt32 in [0xFEED, mediaSSRC] { bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> $0) } }
        for entry in entries {
            bytes += [
                UInt8(entry.packetID >> 8), UInt8(truncatingIfNeeded: entry.packetID), UInt8(entry.lostBitmask >> 8),
                UInt8(truncatingIfNeeded: entry.lostBitmask),
            ]
        }
        return bytes
    }

    /// An empty receiver report (no report block), as a receive-only client sends.
    static func receiverReport(ssrc: UInt32 = 0xFEED) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: RTCPWriter.emptyReceiverReportLength)
        _ = bytes.withUnsafeMutableBytes { RTCPWriter.writeReceiverReport(ssrc: ssrc, block: nil, into: $0, at: 0) }
        return bytes
    }

    static func pictureLossIndication(mediaSSRC: UInt32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: RTCPWriter.pictureLossIndicationLength)
        _ = bytes.withUnsafeMutableBytes { RTCPWriter.writePictureLossIndication(senderSSRC: 0xFEED, mediaSSRC: mediaSSRC, into: $0, at: 0) }
        return bytes
    }

    static func senderReport(ssrc: UInt32, rtpTimestamp: UInt32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: RTCPWriter.senderReportLength)
        _ = bytes.withUnsafeMutableBytes {
            RTCPWriter.writeSenderReport(
                ssrc: ssrc, ntpTimestamp: 0xE000_0000_0000_0000, rtpTimestamp: rtpTimestamp, packetCount: 10, octetCount: 1000, into: $0, at: 0)
        }
        return bytes
    }

    /// The big-endian 32-bit word at `offset`.
    static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
