/// An `a=msid` attribute (RFC 8830): the media stream and track a section's media belongs to.
public struct SDPMsid: Sendable, Hashable {
    /// The media stream id; `-` means the track belongs to no stream.
    public var streamID: String
    /// The track id, when written.
    public var trackID: String?

    /// Creates the attribute.
    public init(streamID: String, trackID: String? = nil) {
        self.streamID = streamID
        self.trackID = trackID
    }

    static let expectedForm = "'<stream id> [<track id>]'"

    /// Parses the value of an `a=msid` attribute (or of the `msid:` item of `a=ssrc`).
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard (1...2).contains(fields.count) else { return nil }
        self.init(streamID: String(fields[0]), trackID: fields.count == 2 ? String(fields[1]) : nil)
    }

    /// The value written after `a=msid:`.
    var sdpValue: String { trackID.map { "\(streamID) \($0)" } ?? streamID }
}
