extension KeyframeDetector {
    /// The NAL unit type of an IDR slice, which starts an H.264 keyframe.
    private static let h264IDRSliceType: UInt8 = 5
    /// The NAL unit type of a sequence parameter set, sent in front of every keyframe.
    private static let h264SequenceParameterSetType: UInt8 = 7
    /// The RFC 6184 aggregation packet type carrying several NAL units (STAP-A).
    private static let h264STAPAType: UInt8 = 24
    /// The RFC 6184 fragmentation unit type (FU-A).
    private static let h264FUAType: UInt8 = 28

    /// H.264, RFC 6184: a single NAL unit, an aggregated NAL unit of a STAP-A, or the first
    /// fragment of an FU-A whose type is an IDR slice or a sequence parameter set.
    static func isH264Keyframe(_ payload: UnsafeRawBufferPointer) -> Bool {
        var cursor = PayloadCursor(payload)
        guard let header = cursor.readByte() else { return false }
        switch header & 0x1F {
        case h264STAPAType:
            return stapAContainsKeyframeUnit(&cursor)
        case h264FUAType:
            guard let fragmentHeader = cursor.readByte() else { return false }
            let isFirstFragment = fragmentHeader & 0x80 != 0
            return isFirstFragment && isH264KeyframeUnitType(fragmentHeader & 0x1F)
        case let type:
            return isH264KeyframeUnitType(type)
        }
    }

    /// Walks the size-prefixed NAL units of a STAP-A; only units that lie entirely inside the
    /// payload are considered, and a size field pointing past the end stops the walk.
    private static func stapAContainsKeyframeUnit(_ cursor: inout PayloadCursor) -> Bool {
        while cursor.remaining >= 2 {
            guard let sizeHigh = cursor.readByte(), let sizeLow = cursor.readByte() else { return false }
            let unitSize = Int(sizeHigh) << 8 | Int(sizeLow)
            guard unitSize > 0, unitSize <= cursor.remaining,
                let unitHeader = cursor.readByte()
            else { return false }
            if isH264KeyframeUnitType(unitHeader & 0x1F) { return true }
            if !cursor.skip(unitSize - 1) { return false }
        }
        return false
    }

    /// Whether a NAL unit of this type marks a keyframe.
    @inline(__always)
    private static func isH264KeyframeUnitType(_ type: UInt8) -> Bool {
        type == h264IDRSliceType || type == h264SequenceParameterSetType
    }
}
