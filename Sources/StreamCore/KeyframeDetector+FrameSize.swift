extension KeyframeDetector {
    /// The coded size a keyframe's first packet states, for the codecs whose keyframes carry it
    /// in their first bytes (VP8); nil for other codecs and for any other packet. Read only on
    /// keyframes: the layer allocator matches a subscriber's rendered size against it.
    public static func frameSize(codec: VideoCodec, payload: UnsafeRawBufferPointer) -> VideoFrameSize? {
        switch codec {
        case .vp8: vp8FrameSize(payload)
        case .vp9, .h264, .av1: nil
        }
    }
}
