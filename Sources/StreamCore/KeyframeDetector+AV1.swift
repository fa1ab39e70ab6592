extension KeyframeDetector {
    /// AV1 RTP payload format: the aggregation header's N bit marks the first packet of a new
    /// coded video sequence, which begins with a key frame. A packet holding nothing after the
    /// aggregation header answers `false`.
    static func isAV1Keyframe(_ payload: UnsafeRawBufferPointer) -> Bool {
        guard payload.count >= 2 else { return false }
        let aggregationHeader = payload[0]
        return aggregationHeader & 0x08 != 0
    }
}
