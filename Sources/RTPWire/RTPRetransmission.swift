/// RFC 4588 retransmission packets: a publisher resends a lost packet on its RTX stream with the
/// original sequence number (OSN) as the first two payload bytes.
public enum RTPRetransmission {
    /// Turns the retransmission packet starting at `packet`, parsed as `header`, back into the
    /// original packet in place: the header moves up over the OSN and gets the original
    /// sequence number, `originalSSRC` and `originalPayloadType`.
    ///
    /// - Returns: where the original packet now lies (it starts 2 bytes further on and is 2
    ///   bytes shorter) and its header; nil when the payload is too short to hold an OSN
    ///   (padding-only packets, which senders use as bandwidth probes), leaving the packet as it is.
    public static func unwrap(
        _ packet: UnsafeMutableRawPointer,
        header: RTPHeader,
        originalSSRC: UInt32,
        originalPayloadType: UInt8
    ) -> (offset: Int, length: Int, header: RTPHeader)? {
        guard header.payloadLength >= 2 else { return nil }
        let originalSequenceNumber =
            UInt16(packet.load(fromByteOffset: header.payloadOffset, as: UInt8.self)) << 8
            | UInt16(packet.load(fromByteOffset: header.payloadOffset + 1, as: UInt8.self))
        let start = packet + 2
        // The regions overlap; copyMemory has memmove semantics.
        start.copyMemory(from: UnsafeRawPointer(packet), byteCount: header.payloadOffset)
        RTPHeaderWriter.setSequenceNumber(originalSequenceNumber, in: start)
        RTPHeaderWriter.setSSRC(originalSSRC, in: start)
        RTPHeaderWriter.setPayloadType(originalPayloadType, in: start)
        var unwrapped = header
        unwrapped.sequenceNumber = originalSequenceNumber
        unwrapped.ssrc = originalSSRC
        unwrapped.payloadType = originalPayloadType & 0x7F
        unwrapped.payloadLength -= 2
        return (offset: 2, length: header.payloadOffset + unwrapped.payloadLength + header.paddingLength, header: unwrapped)
    }
}
