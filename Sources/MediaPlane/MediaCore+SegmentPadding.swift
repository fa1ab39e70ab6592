import CSocketShims

/// Segment padding: with UDP_SEGMENT, one message carries a run of equal-size datagrams to one
/// subscriber, and a shorter datagram ends the run. Encoders cut a frame into about equal packets
/// (libwebrtc's differ by a byte), so runs end within frames and at most frame boundaries. A video
/// packet a few bytes shorter than the open run is padded (RFC 3550 §5.1) to the run's size and
/// the run goes on; the trade is those bytes on the wire against a message through the kernel.
extension MediaCore {
    /// Follows the send queue's runs as pkr_batch_send_segmented will cut them, for a datagram of
    /// `length` bytes just queued on `transport`.
    @inline(__always)
    func noteQueued(length: Int, on transport: TransportState) {
        guard segmentPaddingLimit > 0 else { return }
        let size = transport.runSegmentSize
        if size > 0, length <= size, transport.runSegments < Int(PKR_MAX_SEGMENTS), transport.runBytes + length <= Int(PKR_MAX_SEGMENTED_BYTES) {
            transport.runSegments += 1
            transport.runBytes += length
            // A shorter datagram is the run's last; the next one starts a run of its own.
            if length < size { transport.runSegmentSize = 0 }
        } else if length <= Int(PKR_MAX_SEGMENT_SIZE) {
            transport.runSegmentSize = length
            transport.runSegments = 1
            transport.runBytes = length
        } else {
            transport.runSegmentSize = 0
        }
    }

    /// How many padding bytes make a video RTP packet of `plainLength` bytes (before sealing)
    /// go on with its transport's open run: 0 when it would not go on anyway, when it is longer
    /// than the run, when the gap exceeds the limit, when the run is full, or when the packet
    /// already carries padding (`firstByte`'s P bit), which is left as the sender made it, and
    /// never on ICE-TCP, where no segmentation happens and padding only costs the slowest path.
    @inline(__always)
    func segmentPadding(plainLength: Int, firstByte: UInt8, on transport: TransportState) -> Int {
        let size = transport.runSegmentSize
        guard size > 0, firstByte & 0x20 == 0, !transport.remote.isStream else { return 0 }
        let padding = size - (plainLength + transport.rtpTrailerLength)
        guard padding > 0, padding <= segmentPaddingLimit, plainLength + padding <= Self.maximumPacketSize,
            transport.runSegments < Int(PKR_MAX_SEGMENTS), transport.runBytes + size <= Int(PKR_MAX_SEGMENTED_BYTES)
        else { return 0 }
        return padding
    }

    /// Decides, when a sink is added (never per packet), whether its video packets may be padded
    /// to their run. Audio is never padded. An SRTP
    /// sink's repairs on its own SSRC repeat each packet's padding from its record
    /// (``SinkState/sentRecord``).
    func updateSegmentPadding(of sink: SinkState) {
        sink.padsSegments = segmentPaddingLimit > 0 && sink.isVideo
    }

    /// The padding `choice` gives a packet of `plainLength` bytes on `transport`; a choice made
    /// by the open run is kept in ``lastChosenPadding`` for the sink's record.
    @inline(__always)
    func padding(_ choice: SegmentPaddingChoice, plainLength: Int, firstByte: UInt8, on transport: TransportState) -> Int {
        switch choice {
        case .none:
            return 0
        case .toOpenRun:
            let padding = segmentPadding(plainLength: plainLength, firstByte: firstByte, on: transport)
            lastChosenPadding = padding
            return padding
        case .exactly(let bytes):
            return bytes
        }
    }

    /// ``commitRTP(on:slot:length:)`` for the packet of `length` bytes at `slot` with `padding`
    /// bytes of RTP padding appended first (none when 0): zeros, the last byte the count, and the
    /// P bit set (RFC 3550 §5.1). Padding is counted only when the packet is queued.
    @inline(__always)
    func commitRTP(on transport: TransportState, slot: UnsafeMutableRawPointer, length: Int, padding: Int) -> Bool {
        guard padding > 0 else { return commitRTP(on: transport, slot: slot, length: length) }
        (slot + length).initializeMemory(as: UInt8.self, repeating: 0, count: padding - 1)
        slot.storeBytes(of: UInt8(truncatingIfNeeded: padding), toByteOffset: length + padding - 1, as: UInt8.self)
        slot.storeBytes(of: slot.load(as: UInt8.self) | 0x20, as: UInt8.self)
        guard commitRTP(on: transport, slot: slot, length: length + padding) else { return false }
        counters.paddedPackets &+= 1
        counters.paddingBytes &+= UInt64(padding)
        return true
    }
}
