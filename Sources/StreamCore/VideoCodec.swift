/// A video codec the relay can detect keyframes for; the raw value is the SDP encoding name.
public enum VideoCodec: String, Sendable, Codable, CaseIterable {
    /// VP8 (RFC 7741 payload format).
    case vp8 = "VP8"
    /// VP9 (RFC 9628 payload format).
    case vp9 = "VP9"
    /// H.264 (RFC 6184 payload format).
    case h264 = "H264"
    /// AV1 (AOM RTP payload format).
    case av1 = "AV1"

    /// The codec with the given encoding name, ignoring case ("vp8", "VP8" and "Vp8" all match);
    /// `nil` for unknown names.
    public static func named(_ name: String) -> VideoCodec? {
        VideoCodec(rawValue: name.uppercased())
    }
}
