/// Tells whether an RTP payload starts a keyframe, by reading only the payload descriptor and
/// the first bytes of the coded frame.
///
/// The relay needs this to know when a subscriber that joined, switched source or lost packets
/// can start decoding again. The answer is `false` for anything truncated or malformed; the
/// detector never reads outside the payload.
public enum KeyframeDetector {
    /// Whether `payload`, the RTP payload of one packet, begins a keyframe of `codec`.
    ///
    /// For codecs whose keyframes span several packets, only the packet carrying the start of
    /// the keyframe answers `true`.
    public static func isKeyframe(codec: VideoCodec, payload: UnsafeRawBufferPointer) -> Bool {
        switch codec {
        case .vp8: isVP8Keyframe(payload)
        case .vp9: isVP9Keyframe(payload)
        case .h264: isH264Keyframe(payload)
        case .av1: isAV1Keyframe(payload)
        }
    }
}
