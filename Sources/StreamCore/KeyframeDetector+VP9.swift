extension KeyframeDetector {
    /// VP9, RFC 9628: a packet begins a keyframe when it starts a frame (B set) that is not
    /// inter-picture predicted (P clear). The rest of the descriptor is walked so that a packet
    /// too short to hold it, or holding no frame data after it, answers `false`.
    static func isVP9Keyframe(_ payload: UnsafeRawBufferPointer) -> Bool {
        var cursor = PayloadCursor(payload)
        guard let first = cursor.readByte() else { return false }
        let hasPictureID = first & 0x80 != 0
        let isInterPredicted = first & 0x40 != 0
        let hasLayerIndices = first & 0x20 != 0
        let isFlexibleMode = first & 0x10 != 0
        let isFrameStart = first & 0x08 != 0
        let hasScalabilityStructure = first & 0x02 != 0
        guard isFrameStart, !isInterPredicted else { return false }

        if hasPictureID {
            guard let pictureID = cursor.readByte() else { return false }
            if pictureID & 0x80 != 0, !cursor.skip(1) { return false }
        }
        if hasLayerIndices {
            // In non-flexible mode the layer byte is followed by TL0PICIDX.
            if !cursor.skip(isFlexibleMode ? 1 : 2) { return false }
        }
        // Reference indices (P_DIFF) follow only when P is set, which was excluded above.
        if hasScalabilityStructure, !skipVP9ScalabilityStructure(&cursor) { return false }
        return cursor.remaining > 0
    }

    /// Moves past a VP9 scalability structure; returns `false` when it is truncated.
    private static func skipVP9ScalabilityStructure(_ cursor: inout PayloadCursor) -> Bool {
        guard let header = cursor.readByte() else { return false }
        let spatialLayerCount = Int(header >> 5) + 1
        let hasResolutions = header & 0x10 != 0
        let hasPictureGroup = header & 0x08 != 0
        // Each spatial layer's width and height, 16 bits each.
        if hasResolutions, !cursor.skip(spatialLayerCount * 4) { return false }
        if hasPictureGroup {
            guard let pictureCount = cursor.readByte() else { return false }
            for _ in 0..<pictureCount {
                guard let pictureDescription = cursor.readByte() else { return false }
                let referenceCount = Int((pictureDescription >> 2) & 0x03)
                if !cursor.skip(referenceCount) { return false }
            }
        }
        return true
    }
}
