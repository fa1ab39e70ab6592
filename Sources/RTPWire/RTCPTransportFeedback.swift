/// A parsed transport-wide congestion control feedback (RTPFB FMT 15,
/// draft-holmer-rmcat-transport-wide-cc-extensions-01 section 3.1): which packets, by
/// transport-wide sequence number, arrived and when.
///
/// Parsing checks that the packet chunks cover the status count and that every receive delta
/// lies inside the packet, so ``forEachPacket(in:_:)`` reads only validated bytes.
public struct RTCPTransportFeedback: Sendable, Equatable {
    public var senderSSRC: UInt32
    public var mediaSSRC: UInt32
    /// The transport-wide sequence number of the first packet reported.
    public var baseSequenceNumber: UInt16
    /// How many packets, from the base on, are reported.
    public var packetStatusCount: Int
    /// The receiver's clock at the first received packet, in 64 ms units (signed 24 bits).
    public var referenceTime: Int32
    /// The receiver's counter of the feedback packets it sent (modulo 256).
    public var feedbackPacketCount: UInt8
    /// How many of the reported packets arrived.
    public private(set) var receivedCount: Int
    /// Where the packet chunks and the receive deltas begin, and where the packet's content ends.
    let chunksOffset: Int
    let deltasOffset: Int
    let endOffset: Int

    /// Parses the FCI of `feedback`; nil when it is not a transport-wide feedback, or its chunks
    /// or deltas run past the packet, or it uses the reserved symbol.
    public init?(feedback: RTCPFeedback, in buffer: UnsafeRawBufferPointer) {
        guard feedback.packetType == RTCPPacketType.transportFeedback,
            feedback.format == RTCPFeedbackFormat.transportWideCongestionControl,
            feedback.fciLength >= 8, feedback.fciOffset + feedback.fciLength <= buffer.count
        else { return nil }
        let start = feedback.fciOffset
        senderSSRC = feedback.senderSSRC
        mediaSSRC = feedback.mediaSSRC
        baseSequenceNumber = buffer.readUInt16(at: start)
        packetStatusCount = Int(buffer.readUInt16(at: start + 2))
        let word = buffer.readUInt32(at: start + 4)
        referenceTime = Int32(bitPattern: word) >> 8
        feedbackPacketCount = UInt8(truncatingIfNeeded: word)
        chunksOffset = start + 8
        endOffset = start + feedback.fciLength
        guard packetStatusCount > 0 else { return nil }
        // Walk the chunks once: where they end, and how many delta bytes the symbols promise.
        var cursor = chunksOffset
        var covered = 0
        var deltaBytes = 0
        var received = 0
        while covered < packetStatusCount {
            guard cursor + 2 <= endOffset else { return nil }
            let chunk = buffer.readUInt16(at: cursor)
            cursor += 2
            var valid = true
            Self.forEachSymbol(of: chunk, upTo: packetStatusCount - covered) { symbol in
                switch symbol {
                case 0: break
                case 1, 2:
                    deltaBytes += Int(symbol)
                    received += 1
                default: valid = false
                }
                covered += 1
            }
            guard valid else { return nil }
        }
        deltasOffset = cursor
        guard deltasOffset + deltaBytes <= endOffset else { return nil }
        receivedCount = received
    }

    /// The packets in order: each one's transport-wide sequence number and, when it arrived, its
    /// arrival on the receiver's clock in microseconds (the reference time plus the deltas so far).
    public func forEachPacket(in buffer: UnsafeRawBufferPointer, _ body: (_ sequenceNumber: UInt16, _ arrivalUs: Int64?) -> Void) {
        guard deltasOffset <= buffer.count else { return }
        var cursor = chunksOffset
        var deltaCursor = deltasOffset
        var covered = 0
        var arrivalUs = Int64(referenceTime) * RTCPWriter.transportFeedbackReferenceUs
        while covered < packetStatusCount, cursor + 2 <= deltasOffset {
            let chunk = buffer.readUInt16(at: cursor)
            cursor += 2
            Self.forEachSymbol(of: chunk, upTo: packetStatusCount - covered) { symbol in
                let sequenceNumber = baseSequenceNumber &+ UInt16(truncatingIfNeeded: covered)
                covered += 1
                switch symbol {
                case 1:
                    arrivalUs += Int64(buffer[deltaCursor]) * RTCPWriter.transportFeedbackTickUs
                    deltaCursor += 1
                    body(sequenceNumber, arrivalUs)
                case 2:
                    arrivalUs += Int64(Int16(bitPattern: buffer.readUInt16(at: deltaCursor))) * RTCPWriter.transportFeedbackTickUs
                    deltaCursor += 2
                    body(sequenceNumber, arrivalUs)
                default:
                    body(sequenceNumber, nil)
                }
            }
        }
    }

    /// The symbols of one packet chunk, at most `limit` of them.
    @inline(__always)
    static func forEachSymbol(of chunk: UInt16, upTo limit: Int, _ body: (UInt8) -> Void) {
        if chunk & 0x8000 == 0 {
            // Run length: two-bit symbol, 13-bit length.
            let symbol = UInt8((chunk >> 13) & 0x03)
            for _ in 0..<min(Int(chunk & 0x1FFF), limit) { body(symbol) }
        } else if chunk & 0x4000 == 0 {
            for index in 0..<min(14, limit) { body(UInt8((chunk >> (13 - index)) & 0x01)) }
        } else {
            for index in 0..<min(7, limit) { body(UInt8((chunk >> (12 - 2 * index)) & 0x03)) }
        }
    }
}
