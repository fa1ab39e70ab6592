public import RTPWire

extension MediaEndpoint {
    /// Sends a picture loss indication from `senderSSRC` about `mediaSSRC` (the SSRC the relay
    /// sends the track with).
    public func sendPictureLossIndication(senderSSRC: UInt32, mediaSSRC: UInt32) throws(MediaEndpointError) {
        try sendRTCP(length: RTCPWriter.pictureLossIndicationLength) { buffer in
            RTCPWriter.writePictureLossIndication(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, into: buffer, at: 0)
        }
    }

    /// Sends one compound packet of generic NACKs for `sequenceNumbers` of `mediaSSRC`, packed
    /// into as few entries (packet id plus 16-bit bitmask) as the numbers allow.
    public func sendGenericNACK(senderSSRC: UInt32, mediaSSRC: UInt32, sequenceNumbers: [UInt16]) throws(MediaEndpointError) {
        let entries = Self.nackEntries(for: sequenceNumbers)
        guard !entries.isEmpty else { return }
        try sendRTCP(length: entries.count * RTCPWriter.genericNACKLength) { buffer in
            var offset = 0
            for entry in entries {
                guard
                    let written = RTCPWriter.writeGenericNACK(
                        senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, packetID: entry.packetID,
                        lostBitmask: entry.lostBitmask, into: buffer, at: offset)
                else { return nil }
                offset += written
            }
            return offset
        }
    }

    /// Sends a receiver report from `ssrc`, with one report block or none.
    public func sendReceiverReport(ssrc: UInt32, block: RTCPReportBlock?) throws(MediaEndpointError) {
        let length = RTCPWriter.emptyReceiverReportLength + (block == nil ? 0 : RTCPReportBlock.wireLength)
        try sendRTCP(length: length) { buffer in
            RTCPWriter.writeReceiverReport(ssrc: ssrc, block: block, into: buffer, at: 0)
        }
    }

    /// Sends one empty receiver report from this endpoint's address, protected with its key:
    /// the authenticated packet the relay waits for before it sends anything to an address
    /// given in `connectTransport` (an address must show that it wants media). Call it after
    /// `connectTransport` has been answered.
    ///
    /// - Parameter ssrc: the report's sender SSRC; any value, one per endpoint.
    public func proveAddress(ssrc: UInt32 = 0x5EED_A11C) throws(MediaEndpointError) {
        try sendReceiverReport(ssrc: ssrc, block: nil)
    }

    /// Sends a sender report (no report blocks) for a track this endpoint publishes.
    public func sendSenderReport(ssrc: UInt32, ntpTimestamp: UInt64, rtpTimestamp: UInt32, packetCount: UInt32, octetCount: UInt32) throws(MediaEndpointError) {
        try sendRTCP(length: RTCPWriter.senderReportLength) { buffer in
            RTCPWriter.writeSenderReport(
                ssrc: ssrc, ntpTimestamp: ntpTimestamp, rtpTimestamp: rtpTimestamp, packetCount: packetCount,
                octetCount: octetCount, into: buffer, at: 0)
        }
    }

    /// Sends an RTCP packet (or compound packet) written elsewhere, protected: transport-wide
    /// feedback, for one.
    public func sendRTCP(_ packet: [UInt8]) throws(MediaEndpointError) {
        try sendProtected(packet, rtcp: true)
    }

    /// Writes an RTCP packet of at most `length` bytes with `write` and sends it protected.
    func sendRTCP(length: Int, _ write: (UnsafeMutableRawBufferPointer) -> Int?) throws(MediaEndpointError) {
        var bytes = [UInt8](repeating: 0, count: length)
        let written = bytes.withUnsafeMutableBytes { write($0) }
        guard let written else { throw .protectFailed("the RTCP packet did not fit") }
        try sendProtected(Array(bytes[0..<written]), rtcp: true)
    }

    /// Groups sequence numbers into NACK entries: each entry covers its packet id and the 16
    /// numbers after it.
    static func nackEntries(for sequenceNumbers: [UInt16]) -> [RTCPNackEntry] {
        var remaining = sequenceNumbers
        var entries: [RTCPNackEntry] = []
        while let first = remaining.first {
            var mask: UInt16 = 0
            var rest: [UInt16] = []
            for number in remaining.dropFirst() {
                let distance = number &- first
                if distance >= 1 && distance <= 16 {
                    mask |= 1 << (distance - 1)
                } else if number != first {
                    rest.append(number)
                }
            }
            entries.append(RTCPNackEntry(packetID: first, lostBitmask: mask))
            remaining = rest
        }
        return entries
    }
}
