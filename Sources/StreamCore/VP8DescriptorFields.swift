/// Where the fields a ``VP8DescriptorRewriter`` edits lie in one VP8 payload descriptor
/// (RFC 7741 4.2), as offsets from the start of the payload. Found once per packet and used
/// for every subscriber it is sent to: the descriptor is the same in each copy.
public struct VP8DescriptorFields: Sendable, Hashable {
    /// The PictureID's first byte, or nil when the descriptor has none.
    public var pictureIdOffset: Int?
    /// Whether the PictureID is the 15-bit form (two bytes) rather than the 7-bit one.
    public var pictureIdIsLong: Bool
    /// The TL0PICIDX byte, or nil when the descriptor has none.
    public var tl0Offset: Int?

    /// The bytes of the payload that hold every field (at most 5): a copy of at least this
    /// many bytes of the payload can be rewritten with these fields.
    public var span: Int {
        max(pictureIdOffset.map { $0 + (pictureIdIsLong ? 2 : 1) } ?? 0, tl0Offset.map { $0 + 1 } ?? 0)
    }

    public init(pictureIdOffset: Int?, pictureIdIsLong: Bool, tl0Offset: Int?) {
        self.pictureIdOffset = pictureIdOffset
        self.pictureIdIsLong = pictureIdIsLong
        self.tl0Offset = tl0Offset
    }
}
