import RTPWire

extension FuzzTarget {
    /// The input is one RTP packet as it arrives. Parsing must describe a layout that lies
    /// inside the packet; every extension element found must lie inside the extension block;
    /// renumbering and the field setters must change exactly what they say; a header written
    /// from the parsed fields must parse back to them. Then the packet is unwrapped as if it came
    /// on an RFC 4588 retransmission stream.
    static func runRTP(_ packet: UnsafeRawBufferPointer) {
        let fromArray = RTPHeader.parse(Array(packet))
        guard let header = RTPHeader.parse(packet) else {
            precondition(fromArray == nil, "the array and buffer parsers disagree")
            return
        }
        precondition(fromArray == header, "the array and buffer parsers disagree")
        precondition(header.headerLength + header.payloadLength + header.paddingLength == packet.count, "header, payload and padding do not add up")
        precondition(header.payloadOffset >= RTPHeader.fixedHeaderLength && header.payloadLength >= 0, "payload outside the packet")
        for index in -1...16 {
            let csrc = header.csrc(at: index, in: packet)
            precondition((csrc != nil) == (index >= 0 && index < header.csrcCount), "CSRC \(index) of \(header.csrcCount)")
        }
        checkExtensions(packet, header: header)
        checkSetters(packet, header: header)
        checkMinimalHeaderWriter(header)
        unwrapRetransmission(packet, header: header)
    }

    /// Every element found lies inside the extension block, and renumbering one moves it to its new
    /// identifier without touching anything else.
    private static func checkExtensions(_ packet: UnsafeRawBufferPointer, header: RTPHeader) {
        let block = header.extensionOffset..<(header.extensionOffset + header.extensionLength)
        var found: [(id: UInt8, data: Range<Int>)] = []
        // An element's identifier is one of the block's bytes (two-byte form) or high nibbles
        // (one-byte form), so asking for those, and for 0 and 15, asks for every element.
        var candidates = Set<UInt8>([0, 15])
        for offset in block where offset < packet.count {
            candidates.insert(packet[offset])
            candidates.insert(packet[offset] >> 4)
        }
        for id in candidates.sorted() {
            guard let data = RTPHeaderExtensions.find(id: id, in: packet, header: header) else { continue }
            precondition(RTPHeaderExtensions.usesElementForm(header), "an element outside the RFC 8285 forms")
            precondition(block.contains(data.lowerBound) || (data.isEmpty && data.lowerBound <= block.upperBound), "element \(id) starts outside the block")
            precondition(data.upperBound <= block.upperBound, "element \(id) runs past the block")
            found.append((id, data))
            if let level = RTPHeaderExtensions.audioLevel(in: packet, header: header, id: id) {
                precondition(level.level <= 127, "audio level above 127")
            }
        }
        guard let first = found.first else { return }
        // A target identifier no element uses yet, valid in both forms.
        guard let target = (1...14).map(UInt8.init).first(where: { id in !found.contains { $0.id == id } }) else { return }
        var copy = Array(packet)
        let renumbered = copy.withUnsafeMutableBytes { RTPHeaderExtensions.renumber(in: $0, header: header, from: first.id, to: target) }
        precondition(renumbered, "a found element could not be renumbered")
        copy.withUnsafeBytes { moved in
            precondition(RTPHeader.parse(moved) == header, "renumbering changed the header")
            precondition(RTPHeaderExtensions.find(id: target, in: moved, header: header) == first.data, "the renumbered element moved")
        }
    }

    /// Each setter changes its field in the parsed header and nothing else.
    private static func checkSetters(_ packet: UnsafeRawBufferPointer, header: RTPHeader) {
        var copy = Array(packet)
        var expected = header
        expected.sequenceNumber = header.sequenceNumber &+ 0x1234
        expected.timestamp = ~header.timestamp
        expected.ssrc = header.ssrc ^ 0xA5A5_A5A5
        expected.payloadType = (header.payloadType &+ 1) & 0x7F
        expected.marker = !header.marker
        copy.withUnsafeMutableBytes { buffer in
            let start = buffer.baseAddress!
            RTPHeaderWriter.setSequenceNumber(expected.sequenceNumber, in: start)
            RTPHeaderWriter.setTimestamp(expected.timestamp, in: start)
            RTPHeaderWriter.setSSRC(expected.ssrc, in: start)
            RTPHeaderWriter.setPayloadType(expected.payloadType, in: start)
            RTPHeaderWriter.setMarker(expected.marker, in: start)
        }
        precondition(RTPHeader.parse(copy) == expected, "a setter changed more than its field")
    }

    /// The minimal header writer's output parses back to the fields written.
    private static func checkMinimalHeaderWriter(_ header: RTPHeader) {
        var written = [UInt8](repeating: 0xFF, count: RTPHeader.fixedHeaderLength)
        let length = written.withUnsafeMutableBytes {
            RTPHeaderWriter.write(
                marker: header.marker, payloadType: header.payloadType, sequenceNumber: header.sequenceNumber,
                timestamp: header.timestamp, ssrc: header.ssrc, into: $0)
        }
        precondition(length == RTPHeader.fixedHeaderLength, "the writer refused a 12-byte buffer")
        let expected = RTPHeader(
            marker: header.marker, payloadType: header.payloadType, sequenceNumber: header.sequenceNumber,
            timestamp: header.timestamp, ssrc: header.ssrc, csrcCount: 0, hasPadding: false, hasExtension: false,
            extensionProfile: 0, extensionOffset: 0, extensionLength: 0, headerLength: RTPHeader.fixedHeaderLength,
            payloadLength: 0, paddingLength: 0)
        precondition(RTPHeader.parse(written) == expected, "a written header does not parse back")
        let short = [UInt8](repeating: 0, count: RTPHeader.fixedHeaderLength - 1)
        var shortCopy = short
        let refused = shortCopy.withUnsafeMutableBytes {
            RTPHeaderWriter.write(marker: false, payloadType: 0, sequenceNumber: 0, timestamp: 0, ssrc: 0, into: $0)
        }
        precondition(refused == nil && shortCopy == short, "the writer wrote past a short buffer")
    }

    /// Unwraps the packet as an RFC 4588 retransmission through the data plane's own code and
    /// checks that the result is the original packet that was wrapped.
    private static func unwrapRetransmission(_ packet: UnsafeRawBufferPointer, header: RTPHeader) {
        var buffer = Array(packet)
        let unwrapped = buffer.withUnsafeMutableBytes { raw in
            RTPRetransmission.unwrap(raw.baseAddress!, header: header, originalSSRC: 0x0102_0304, originalPayloadType: 96)
        }
        guard header.payloadLength >= 2 else {
            precondition(unwrapped == nil, "a retransmission without its original sequence number was unwrapped")
            return
        }
        guard let unwrapped else { preconditionFailure("a retransmission with a payload was not unwrapped") }
        let originalSequenceNumber = UInt16(packet[header.payloadOffset]) << 8 | UInt16(packet[header.payloadOffset + 1])
        precondition(unwrapped.header.sequenceNumber == originalSequenceNumber, "wrong original sequence number")
        precondition(unwrapped.header.ssrc == 0x0102_0304 && unwrapped.header.payloadType == 96, "wrong original stream")
        precondition(unwrapped.offset == 2 && unwrapped.length == packet.count - 2, "wrong unwrapped extent")
        buffer.withUnsafeBytes { raw in
            let original = UnsafeRawBufferPointer(rebasing: raw[unwrapped.offset..<(unwrapped.offset + unwrapped.length)])
            precondition(RTPHeader.parse(original) == unwrapped.header, "the unwrapped packet does not parse to its header")
        }
    }
}
