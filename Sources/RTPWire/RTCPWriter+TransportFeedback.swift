extension RTCPWriter {
    /// Bytes of a transport-wide feedback before its packet chunks: the RTPFB header, then the
    /// base sequence number, status count, reference time and feedback packet count.
    public static let transportFeedbackHeaderLength = 20
    /// The receive deltas' unit.
    public static let transportFeedbackTickUs: Int64 = 250
    /// The reference time's unit.
    public static let transportFeedbackReferenceUs: Int64 = 64_000

    /// Writes an RTPFB transport-wide congestion control feedback (FMT 15,
    /// draft-holmer-rmcat-transport-wide-cc-extensions-01 section 3.1) for the packets from
    /// `baseSequenceNumber` on, as many of the next `maximumPacketCount` as fit the buffer.
    ///
    /// The reference time is the first received packet's arrival in 64 ms units, and each
    /// received packet's delta (250 µs ticks) is taken from the previous one's as reported, so
    /// rounding never accumulates. The feedback ends early before a packet whose delta does not
    /// fit 16 bits (over 8 s from its predecessor) or whose bytes would not fit the buffer; it
    /// is padded to a 32-bit boundary with the padding bit set, as libwebrtc writes it.
    ///
    /// - Returns: the bytes written and how many packets, from the base on, the feedback
    ///   reports; nil (nothing written) when it would report no received packet or nothing fits.
    public static func writeTransportFeedback(
        senderSSRC: UInt32,
        mediaSSRC: UInt32,
        baseSequenceNumber: UInt16,
        maximumPacketCount: Int,
        feedbackPacketCount: UInt8,
        arrivals: some TransportFeedbackArrivals,
        into buffer: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) -> (length: Int, packetCount: Int)? {
        guard buffer.hasRoom(for: transportFeedbackHeaderLength + 4, at: offset) else { return nil }
        let capacity = buffer.count - offset
        // The chunk area may take at most half of the room, the deltas' scratch the rest.
        let limit = min(maximumPacketCount, 0xFFFF, TransportFeedbackChunker.twoBitCapacity * ((capacity - transportFeedbackHeaderLength) / 4 - 2))
        guard limit > 0 else { return nil }
        // Deltas go first to a scratch area after the largest chunk area the packets can take,
        // and move down once the chunks' length is known.
        let scratch = offset + transportFeedbackHeaderLength + 2 * TransportFeedbackChunker.maximumChunks(forPackets: limit)
        guard scratch < buffer.count else { return nil }
        var referenceTime: Int64?
        var previousUs: Int64 = 0
        var deltaBytes = 0
        var packets = 0
        var received = 0
        var chunkCursor = offset + transportFeedbackHeaderLength
        var chunker = TransportFeedbackChunker()
        while packets < limit {
            var symbol = TransportFeedbackSymbol.notReceived
            var delta: Int64 = 0
            if let arrival = arrivals.arrivalUs(at: packets) {
                if referenceTime == nil {
                    let reference = floorDivide(arrival, by: transportFeedbackReferenceUs)
                    referenceTime = reference
                    previousUs = reference * transportFeedbackReferenceUs
                }
                delta = floorDivide(arrival - previousUs + transportFeedbackTickUs / 2, by: transportFeedbackTickUs)
                guard delta >= Int64(Int16.min), delta <= Int64(Int16.max) else { break }
                symbol = delta >= 0 && delta <= 255 ? .smallDelta : .largeDelta
            }
            // Room for this packet: its delta, the chunks so far and at most two more, padding.
            let chunksAtMost = chunkCursor - offset - transportFeedbackHeaderLength + 4
            guard transportFeedbackHeaderLength + chunksAtMost + deltaBytes + symbol.deltaBytes + 3 <= capacity,
                scratch + deltaBytes + symbol.deltaBytes <= buffer.count
            else { break }
            if symbol != .notReceived {
                if symbol == .smallDelta {
                    buffer[scratch + deltaBytes] = UInt8(delta)
                } else {
                    buffer.writeUInt16(UInt16(bitPattern: Int16(delta)), at: scratch + deltaBytes)
                }
                deltaBytes += symbol.deltaBytes
                previousUs += delta * transportFeedbackTickUs
                received += 1
            }
            chunker.add(symbol) { chunk in
                buffer.writeUInt16(chunk, at: chunkCursor)
                chunkCursor += 2
            }
            packets += 1
        }
        guard received > 0, let referenceTime else { return nil }
        chunker.finish { chunk in
            buffer.writeUInt16(chunk, at: chunkCursor)
            chunkCursor += 2
        }
        let deltasStart = chunkCursor
        UnsafeMutableRawBufferPointer(rebasing: buffer[deltasStart..<(deltasStart + deltaBytes)])
            .copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[scratch..<(scratch + deltaBytes)]))
        let contentLength = deltasStart + deltaBytes - offset
        let padding = (4 - contentLength % 4) % 4
        for index in 0..<padding { buffer[offset + contentLength + index] = 0 }
        let length = contentLength + padding
        if padding > 0 { buffer[offset + length - 1] = UInt8(padding) }
        buffer[offset] = 0x80 | (padding > 0 ? 0x20 : 0) | RTCPFeedbackFormat.transportWideCongestionControl
        buffer[offset + 1] = RTCPPacketType.transportFeedback
        buffer.writeUInt16(UInt16(length / 4 - 1), at: offset + 2)
        buffer.writeUInt32(senderSSRC, at: offset + 4)
        buffer.writeUInt32(mediaSSRC, at: offset + 8)
        buffer.writeUInt16(baseSequenceNumber, at: offset + 12)
        buffer.writeUInt16(UInt16(packets), at: offset + 14)
        let reference = UInt32(truncatingIfNeeded: referenceTime) & 0x00FF_FFFF
        buffer.writeUInt32(reference << 8 | UInt32(feedbackPacketCount), at: offset + 16)
        return (length, packets)
    }

    /// Division rounding toward negative infinity.
    @inline(__always)
    static func floorDivide(_ value: Int64, by divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
