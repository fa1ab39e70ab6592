extension KeyframeDetector {
    /// VP8, RFC 7741: skips the payload descriptor and reads the frame tag's inverse key-frame
    /// (P) bit. Only the first packet of the first partition (S set, partition index 0) carries
    /// the frame tag, so every other packet answers `false`.
    static func isVP8Keyframe(_ payload: UnsafeRawBufferPointer) -> Bool {
        guard var cursor = vp8FrameStart(payload), let frameTag = cursor.readByte() else { return false }
        return frameTag & 0x01 == 0
    }

    /// A VP8 keyframe's coded size (RFC 6386 9.1: the 3-byte frame tag, the start code
    /// 9d 01 2a, then width and height as 14 bits each, little-endian, above 2 scaling bits);
    /// nil for anything else.
    static func vp8FrameSize(_ payload: UnsafeRawBufferPointer) -> VideoFrameSize? {
        guard var cursor = vp8FrameStart(payload), let frameTag = cursor.readByte(), frameTag & 0x01 == 0, cursor.skip(2),
            cursor.readByte() == 0x9D, cursor.readByte() == 0x01, cursor.readByte() == 0x2A,
            let widthLow = cursor.readByte(), let widthHigh = cursor.readByte(), let heightLow = cursor.readByte(), let heightHigh = cursor.readByte()
        else { return nil }
        let width = Int(widthLow) | Int(widthHigh & 0x3F) << 8
        let height = Int(heightLow) | Int(heightHigh & 0x3F) << 8
        guard width > 0, height > 0 else { return nil }
        return VideoFrameSize(width: width, height: height)
    }

    /// A cursor at the VP8 frame after the payload descriptor, when this packet starts the first
    /// partition; nil otherwise or when the descriptor is cut short.
    private static func vp8FrameStart(_ payload: UnsafeRawBufferPointer) -> PayloadCursor? {
        var cursor = PayloadCursor(payload)
        guard let first = cursor.readByte() else { return nil }
        let hasExtension = first & 0x80 != 0
        let isPartitionStart = first & 0x10 != 0
        let partitionIndex = first & 0x07
        guard isPartitionStart, partitionIndex == 0 else { return nil }

        if hasExtension {
            guard let extensionBits = cursor.readByte() else { return nil }
            let hasPictureID = extensionBits & 0x80 != 0
            let hasTL0PictureIndex = extensionBits & 0x40 != 0
            let hasTemporalLayer = extensionBits & 0x20 != 0
            let hasKeyIndex = extensionBits & 0x10 != 0
            if hasPictureID {
                guard let pictureID = cursor.readByte() else { return nil }
                // The M bit selects the 15-bit form of the picture ID.
                if pictureID & 0x80 != 0, !cursor.skip(1) { return nil }
            }
            if hasTL0PictureIndex, !cursor.skip(1) { return nil }
            // TID, Y and KEYIDX share one byte, present when either T or K is set.
            if hasTemporalLayer || hasKeyIndex, !cursor.skip(1) { return nil }
        }
        return cursor
    }
}
