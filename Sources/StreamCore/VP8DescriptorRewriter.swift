/// Keeps a subscriber's VP8 picture IDs and TL0PICIDX continuous when its track switches to
/// another encoding (a simulcast layer switch) or another publication.
///
/// Each VP8 encoder numbers its pictures (RFC 7741 PictureID, 7 or 15 bits) and its base
/// temporal-layer frames (TL0PICIDX, 8 bits) on its own. A decoder that sees the numbers jump
/// at a layer switch cannot tell which frames the new ones depend on and holds them until it
/// asks for a keyframe. Like ``TrackRewriter`` for sequence numbers, this maps every source
/// generation with a fixed offset chosen so that its first picture follows the last one sent.
/// It edits the payload descriptor in place and allocates nothing.
public struct VP8DescriptorRewriter: Sendable {
    private var hasStarted = false
    private var generation: UInt32 = 0
    private var pictureIdOffset: UInt16 = 0
    private var tl0Offset: UInt8 = 0
    /// The highest picture ID and TL0PICIDX written (15-bit and 8-bit spaces).
    private var lastPictureId: UInt16 = 0
    private var lastTL0: UInt8 = 0
    private var seenPictureId = false
    private var seenTL0 = false

    public init() {}

    /// Rewrites the descriptor at the start of `payload` (an RTP payload of VP8) for a packet
    /// of source generation `generation`; packets without the fields are left alone.
    public mutating func rewrite(generation: UInt32, payload: UnsafeMutableRawBufferPointer) {
        guard let fields = Self.locate(in: UnsafeRawBufferPointer(payload)) else { return }
        rewrite(generation: generation, payload: payload, fields: fields)
    }

    /// ``rewrite(generation:payload:)`` with the fields already located in this packet's
    /// descriptor (``locate(in:)``): a packet sent to many subscribers is parsed once. A
    /// `payload` shorter than the fields' span is left alone.
    public mutating func rewrite(generation: UInt32, payload: UnsafeMutableRawBufferPointer, fields: VP8DescriptorFields) {
        guard payload.count >= fields.span else { return }
        let sourcePictureId: UInt16? = fields.pictureIdOffset.map { offset in
            fields.pictureIdIsLong
                ? (UInt16(payload[offset] & 0x7F) << 8) | UInt16(payload[offset + 1])
                : UInt16(payload[offset] & 0x7F)
        }
        let sourceTL0: UInt8? = fields.tl0Offset.map { payload[$0] }
        if !hasStarted || generation != self.generation {
            // The first picture of a new source follows the last one sent (or keeps its number).
            if let sourcePictureId { pictureIdOffset = seenPictureId ? (lastPictureId &+ 1) &- sourcePictureId : 0 }
            if let sourceTL0 { tl0Offset = seenTL0 ? (lastTL0 &+ 1) &- sourceTL0 : 0 }
            hasStarted = true
            self.generation = generation
        }
        if let sourcePictureId, let offset = fields.pictureIdOffset {
            let output = (sourcePictureId &+ pictureIdOffset) & 0x7FFF
            if fields.pictureIdIsLong {
                payload[offset] = 0x80 | UInt8(output >> 8)
                payload[offset + 1] = UInt8(truncatingIfNeeded: output)
            } else {
                payload[offset] = UInt8(output & 0x7F)
            }
            // Later, not reordered or retransmitted, pictures move the mark forward.
            let width: UInt16 = fields.pictureIdIsLong ? 0x7FFF : 0x7F
            let advance = (output &- lastPictureId) & width
            if !seenPictureId || (advance != 0 && advance < (width + 1) / 2) { lastPictureId = output & width }
            seenPictureId = true
        }
        if let sourceTL0, let offset = fields.tl0Offset {
            let output = sourceTL0 &+ tl0Offset
            payload[offset] = output
            if !seenTL0 || Int8(bitPattern: output &- lastTL0) > 0 { lastTL0 = output }
            seenTL0 = true
        }
    }

    /// Where the PictureID and TL0PICIDX fields lie in a VP8 payload descriptor (RFC 7741 4.2);
    /// nil when the payload is too short for the descriptor it announces.
    public static func locate(in payload: UnsafeRawBufferPointer) -> VP8DescriptorFields? {
        guard payload.count >= 2, payload[0] & 0x80 != 0 else { return nil }
        let extensions = payload[1]
        var index = 2
        var pictureIdOffset: Int?
        var isLong = false
        if extensions & 0x80 != 0 {
            guard payload.count > index else { return nil }
            pictureIdOffset = index
            isLong = payload[index] & 0x80 != 0
            index += isLong ? 2 : 1
        }
        var tl0Offset: Int?
        if extensions & 0x40 != 0 {
            guard payload.count > index else { return nil }
            tl0Offset = index
            index += 1
        }
        guard payload.count >= index else { return nil }
        if let pictureIdOffset, isLong, pictureIdOffset + 1 >= payload.count { return nil }
        return VP8DescriptorFields(pictureIdOffset: pictureIdOffset, pictureIdIsLong: isLong, tl0Offset: tl0Offset)
    }
}
