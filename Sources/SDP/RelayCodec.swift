/// A codec the relay can forward.
public enum RelayCodec: String, Sendable, Hashable, CaseIterable {
    /// Opus, `opus/48000/2`.
    case opus
    /// VP8, `VP8/90000`.
    case vp8
    /// H.264, `H264/90000`, in packetization mode 1 only: mode 0 sends one NAL unit per
    /// packet, which large key frames do not fit.
    case h264

    /// The profile-level-ids preferred for H.264: constrained baseline level 3.1 as
    /// browsers write it, which every browser decodes in hardware or software.
    public static let preferredH264ProfileLevelIDs: Set<String> = ["42e01f", "42001f"]

    /// The media kind the codec carries.
    public var kind: SDPMediaKind { self == .opus ? .audio : .video }

    /// How well an offered format fits this codec: 0 is the best fit, larger numbers are
    /// worse, nil means the format is not this codec or not usable.
    func fit(of map: SDPRTPMap, parameters: SDPFormatParameters?) -> Int? {
        switch self {
        case .opus:
            guard map.isEncoding("opus"), map.clockRate == 48_000, map.channels == 2 else { return nil }
            return 0
        case .vp8:
            guard map.isEncoding("VP8"), map.clockRate == 90_000 else { return nil }
            return 0
        case .h264:
            guard map.isEncoding("H264"), map.clockRate == 90_000,
                parameters?.parameter("packetization-mode") == "1"
            else { return nil }
            let profile = parameters?.parameter("profile-level-id")?.lowercased() ?? ""
            return Self.preferredH264ProfileLevelIDs.contains(profile) ? 0 : 1
        }
    }
}
