/// One negotiated codec: its payload type and what `a=rtpmap` and `a=fmtp` say of it.
public struct CodecDescription: Sendable, Hashable {
    /// The payload type.
    public var payloadType: UInt8
    /// The encoding name as written by the side that chose the payload type (`opus`, `VP8`,
    /// `H264`).
    public var name: String
    /// The RTP clock rate in hertz.
    public var clockRate: UInt32
    /// The channel count, for audio.
    public var channels: Int?
    /// The `a=fmtp` parameter text, when there is one.
    public var formatParameters: String?

    /// Creates a codec description.
    public init(payloadType: UInt8, name: String, clockRate: UInt32, channels: Int? = nil, formatParameters: String? = nil) {
        self.payloadType = payloadType
        self.name = name
        self.clockRate = clockRate
        self.channels = channels
        self.formatParameters = formatParameters
    }

    /// Opus as WebRTC uses it: 48 kHz, written with two channels.
    public static func opus(payloadType: UInt8, formatParameters: String? = "minptime=10;useinbandfec=1") -> CodecDescription {
        CodecDescription(payloadType: payloadType, name: "opus", clockRate: 48_000, channels: 2, formatParameters: formatParameters)
    }

    /// VP8 at the 90 kHz video clock.
    public static func vp8(payloadType: UInt8) -> CodecDescription {
        CodecDescription(payloadType: payloadType, name: "VP8", clockRate: 90_000)
    }

    /// H.264 in non-interleaved mode with the given profile-level-id (constrained baseline
    /// level 3.1 by default).
    public static func h264(payloadType: UInt8, profileLevelID: String = "42e01f") -> CodecDescription {
        CodecDescription(
            payloadType: payloadType, name: "H264", clockRate: 90_000,
            formatParameters: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=\(profileLevelID)")
    }

    /// The value of the fmtp parameter called `name`, compared without regard to case.
    public func parameter(_ name: String) -> String? {
        formatParameters.flatMap { SDPFormatParameters(payloadType: payloadType, value: $0).parameter(name) }
    }

    /// Whether `other` describes the same codec configuration, payload type aside.
    func hasSameConfiguration(as other: CodecDescription) -> Bool {
        name.lowercased() == other.name.lowercased() && clockRate == other.clockRate && channels == other.channels
            && formatParameters == other.formatParameters
    }

    /// Reads the codec of `payloadType` from a section; nil without an `a=rtpmap`.
    init?(payloadType: UInt8, in media: MediaDescription) {
        guard let map = media.rtpMap(for: payloadType) else { return nil }
        let parameters = media.formatParameters(for: payloadType)?.value
        self.init(
            payloadType: payloadType, name: map.encodingName, clockRate: map.clockRate, channels: map.channels,
            formatParameters: parameters?.isEmpty == false ? parameters : nil)
    }

    /// The `a=rtpmap` for this codec.
    var rtpMap: SDPRTPMap {
        SDPRTPMap(payloadType: payloadType, encodingName: name, clockRate: clockRate, channels: channels)
    }

    /// The `a=fmtp` for this codec, if it has parameters.
    var fmtp: SDPFormatParameters? {
        formatParameters.map { SDPFormatParameters(payloadType: payloadType, value: $0) }
    }
}
