extension KeyframeDetector {
    /// VP8, RFC 7741: skips the payload descriptor and reads the frame tag's inverse key-frame
    /// (P) bit. Only the first packet of the first partition (S set, partition index 0) carries
    /// the frame tag, so every other packet answers `false`.
    static func isVP8Keyframe(_ payload: UnsafeRawBufferPointer) -> Bool {
        var cursor = PayloadCursor(payload)
        guard let first = cursor.readByte() else { return false }
        let hasExtension = first & 0x80 != 0
        let isPartitionStart = first & 0x10 != 0
        let partitionIndex = first & 0x07
        guard isPartitionStart, partitionIndex == 0 else { return false }

        if hasExtension {
            guard let extensionBits = cursor.readByte() else { return false }
            let hasPictureID = extensionBits & 0x80 != 0
            let hasTL0PictureIndex = extensionBits & 0x40 != 0
            let hasTemporalLayer = extensionBits & 0x20 != 0
            let hasKeyIndex = extensionBits & 0x10 != 0
            if hasPictureID {
                guard let pictureID = cursor.readByte() else { return false }
                // The M bit selects the 15-bit form of the picture ID.
                if pictureID & 0x80 != 0, !cursor.skip(1) { return false }
            }
            if hasTL0PictureIndex, !cursor.skip(1) { return false }
            // TID, Y and KEYIDX share one byte, present when either T or K is set.
            if hasTemporalLayer || hasKeyIndex, !cursor.skip(1) { return false }
        }

        guard let frameTag = cursor.readByte() else { return false }
        return frameTag & 0x01 == 0
    }
}
