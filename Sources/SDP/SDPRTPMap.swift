/// An `a=rtpmap` attribute: what a dynamic payload type stands for, such as
/// `111 opus/48000/2` or `96 VP8/90000`.
public struct SDPRTPMap: Sendable, Hashable {
    /// The payload type, 0...127.
    public var payloadType: UInt8
    /// The encoding name as written (`opus`, `VP8`, `H264`, `rtx`, ...).
    public var encodingName: String
    /// The RTP clock rate in hertz.
    public var clockRate: UInt32
    /// The channel count for audio, when written.
    public var channels: Int?

    /// Creates the attribute.
    public init(payloadType: UInt8, encodingName: String, clockRate: UInt32, channels: Int? = nil) {
        self.payloadType = payloadType
        self.encodingName = encodingName
        self.clockRate = clockRate
        self.channels = channels
    }

    /// Whether the encoding name is `name`, compared without regard to case as RFC 4855 asks.
    public func isEncoding(_ name: String) -> Bool { encodingName.lowercased() == name.lowercased() }

    static let expectedForm = "'<payload type 0-127> <encoding name>/<clock rate>[/<channels>]'"

    /// Parses the value of an `a=rtpmap` attribute.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard fields.count == 2, let payloadType = SDPText.payloadType(fields[0]) else { return nil }
        let parts = SDPText.split(fields[1], at: "/", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), SDPText.isToken(parts[0]),
            let clockRate = SDPText.unsigned(parts[1], as: UInt32.self), clockRate > 0
        else { return nil }
        var channels: Int?
        if parts.count == 3 {
            guard let count = SDPText.unsigned(parts[2], as: UInt8.self), count > 0 else { return nil }
            channels = Int(count)
        }
        self.init(payloadType: payloadType, encodingName: String(parts[0]), clockRate: clockRate, channels: channels)
    }

    /// The value written after `a=rtpmap:`.
    var sdpValue: String {
        let base = "\(payloadType) \(encodingName)/\(clockRate)"
        return channels.map { "\(base)/\($0)" } ?? base
    }
}
