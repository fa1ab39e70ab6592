/// Writers of the RTCP packets a relay originates, each writing one complete packet into a
/// caller-provided buffer at an offset. Several calls at increasing offsets build a
/// compound packet.
///
/// Every writer returns the number of bytes written, or nil (writing nothing) when the
/// packet does not fit between `offset` and the end of the buffer.
public enum RTCPWriter {
    /// Bytes of a picture loss indication.
    public static let pictureLossIndicationLength = 12
    /// Bytes of a full intra request with one entry.
    public static let fullIntraRequestLength = 20
    /// Bytes of a generic NACK with one entry.
    public static let genericNACKLength = 16
    /// Bytes of a sender report without report blocks.
    public static let senderReportLength = 28
    /// Bytes of a receiver report without report blocks.
    public static let emptyReceiverReportLength = 8
    /// Bytes of a goodbye for one SSRC without a reason.
    public static let goodbyeLength = 8

    /// Writes a PSFB picture loss indication asking `mediaSSRC` for a key frame.
    public static func writePictureLossIndication(
        senderSSRC: UInt32,
        mediaSSRC: UInt32,
        into buffer: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) -> Int? {
        let length = pictureLossIndicationLength
        guard buffer.hasRoom(for: length, at: offset) else { return nil }
        writeCommonHeader(
            countOrFormat: RTCPFeedbackFormat.pictureLossIndication,
            packetType: RTCPPacketType.payloadFeedback, length: length, into: buffer, at: offset)
        buffer.writeUInt32(senderSSRC, at: offset + 4)
        buffer.writeUInt32(mediaSSRC, at: offset + 8)
        return length
    }

    /// Writes a PSFB full intra request for `mediaSSRC` with command sequence number
    /// `sequenceNumber`, which the caller increments for every new request.
    /// The media source field is 0 as RFC 5104 requires; the target sits in the FCI.
    public static func writeFullIntraRequest(
        senderSSRC: UInt32,
        mediaSSRC: UInt32,
        sequenceNumber: UInt8,
        into buffer: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) -> Int? {
        let length = fullIntraRequestLength
        guard buffer.hasRoom(for: length, at: offset) else { return nil }
        writeCommonHeader(
            countOrFormat: RTCPFeedbackFormat.fullIntraRequest,
            packetType: RTCPPacketType.payloadFeedback, length: length, into: buffer, at: offset)
        buffer.writeUInt32(senderSSRC, at: offset + 4)
        buffer.writeUInt32(0, at: offset + 8)
        buffer.writeUInt32(mediaSSRC, at: offset + 12)
        buffer.writeUInt32(UInt32(sequenceNumber) << 24, at: offset + 16)
        return length
    }

    /// Writes an RTPFB generic NACK with one entry: `packetID` and the 16 packets after it
    /// whose bits are set in `lostBitmask`.
    public static func writeGenericNACK(
        senderSSRC: UInt32,
        mediaSSRC: UInt32,
        packetID: UInt16,
        lostBitmask: UInt16,
        into buffer: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) -> Int? {
        let length = genericNACKLength
        guard buffer.hasRoom(for: length, at: offset) else { return nil }
        writeCommonHeader(
            countOrFormat: RTCPFeedbackFormat.genericNACK,
            packetType: RTCPPacketType.transportFeedback, length: length, into: buffer, at: offset)
        buffer.writeUInt32(senderSSRC, at: offset + 4)
        buffer.writeUInt32(mediaSSRC, at: offset + 8)
        buffer.writeUInt16(packetID, at: offset + 12)
        buffer.writeUInt16(lostBitmask, at: offset + 14)
        return length
    }

    /// Writes a sender report without report blocks.
    public static func writeSenderReport(
        ssrc: UInt32,
        ntpTimestamp: UInt64,
        rtpTimestamp: UInt32,
        packetCount: UInt32,
        octetCount: UInt32,
        into buffer: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) -> Int? {
        let length = senderReportLength
        guard buffer.hasRoom(for: length, at: offset) else { return nil }
        writeCommonHeader(
            countOrFormat: 0, packetType: RTCPPacketType.senderReport, length: length,
            into: buffer, at: offset)
        buffer.writeUInt32(ssrc, at: offset + 4)
        buffer.writeUInt64(ntpTimestamp, at: offset + 8)
        buffer.writeUInt32(rtpTimestamp, at: offset + 16)
        buffer.writeUInt32(packetCount, at: offset + 20)
        buffer.writeUInt32(octetCount, at: offset + 24)
        return length
    }

    /// Writes a receiver report from `ssrc` with no report block, or with `block`.
    public static func writeReceiverReport(
        ssrc: UInt32,
        block: RTCPReportBlock?,
        into buffer: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) -> Int? {
        let blockCount = block == nil ? 0 : 1
        let length = emptyReceiverReportLength + blockCount * RTCPReportBlock.wireLength
        guard buffer.hasRoom(for: length, at: offset) else { return nil }
        writeCommonHeader(
            countOrFormat: UInt8(blockCount), packetType: RTCPPacketType.receiverReport,
            length: length, into: buffer, at: offset)
        buffer.writeUInt32(ssrc, at: offset + 4)
        block?.write(into: buffer, at: offset + emptyReceiverReportLength)
        return length
    }

    /// Writes a goodbye for `ssrc`, without a reason.
    public static func writeGoodbye(
        ssrc: UInt32,
        into buffer: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) -> Int? {
        let length = goodbyeLength
        guard buffer.hasRoom(for: length, at: offset) else { return nil }
        writeCommonHeader(
            countOrFormat: 1, packetType: RTCPPacketType.goodbye, length: length,
            into: buffer, at: offset)
        buffer.writeUInt32(ssrc, at: offset + 4)
        return length
    }

    /// Writes a source description with one chunk holding the CNAME item for `ssrc`.
    ///
    /// RFC 3550 wants a CNAME in every compound packet unless reduced-size RTCP (RFC 5506)
    /// was negotiated. `cname` holds the item text as bytes, 1 to 255 of them; the chunk is
    /// ended by null bytes up to the next 32-bit boundary.
    public static func writeSourceDescriptionCNAME(
        ssrc: UInt32,
        cname: UnsafeRawBufferPointer,
        into buffer: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) -> Int? {
        guard cname.count >= 1, cname.count <= 255 else { return nil }
        // SSRC, item type, item length and text, then at least one null byte, in whole words.
        let chunkLength = (4 + 2 + cname.count + 1 + 3) / 4 * 4
        let length = 4 + chunkLength
        guard buffer.hasRoom(for: length, at: offset) else { return nil }
        writeCommonHeader(
            countOrFormat: 1, packetType: RTCPPacketType.sourceDescription, length: length,
            into: buffer, at: offset)
        buffer.writeUInt32(ssrc, at: offset + 4)
        buffer[offset + 8] = 1  // CNAME
        buffer[offset + 9] = UInt8(cname.count)
        let textStart = offset + 10
        UnsafeMutableRawBufferPointer(rebasing: buffer[textStart..<(textStart + cname.count)]).copyMemory(from: cname)
        for index in (textStart + cname.count)..<(offset + length) {
            buffer[index] = 0
        }
        return length
    }

    /// Writes version 2, no padding, the 5-bit count or format, the type and the length in
    /// 32-bit words minus one.
    private static func writeCommonHeader(
        countOrFormat: UInt8,
        packetType: UInt8,
        length: Int,
        into buffer: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) {
        buffer[offset] = 0x80 | (countOrFormat & 0x1F)
        buffer[offset + 1] = packetType
        buffer.writeUInt16(UInt16(length / 4 - 1), at: offset + 2)
    }
}
