extension KeyframeDetector {
    /// The coded size a keyframe's packet states: a VP8 keyframe's first packet, or the H.264
    /// sequence parameter set in front of an IDR slice; nil for VP9 and AV1 and for any other
    /// packet. Read only on keyframes: the layer allocator matches a subscriber's rendered size
    /// against it.
    public static func frameSize(codec: VideoCodec, payload: UnsafeRawBufferPointer) -> VideoFrameSize? {
        switch codec {
        case .vp8: vp8FrameSize(payload)
        case .h264: h264FrameSize(payload)
        case .vp9, .av1: nil
        }
    }
}
