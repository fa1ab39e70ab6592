/// The URIs of the RTP header extensions the relay negotiates.
public enum HeaderExtensionURI: Sendable {
    /// The section's mid in each packet (RFC 9143), which routes packets within a BUNDLE.
    public static let mid = "urn:ietf:params:rtp-hdrext:sdes:mid"
    /// The rid of a simulcast stream (RFC 8852).
    public static let rtpStreamID = "urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id"
    /// The rid of the stream a retransmission stream repairs (RFC 8852).
    public static let repairedRTPStreamID = "urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id"
    /// The audio level of each audio packet (RFC 6464), used for active-speaker detection.
    public static let audioLevel = "urn:ietf:params:rtp-hdrext:ssrc-audio-level"
    /// A sequence number across every stream of the transport
    /// (draft-holmer-rmcat-transport-wide-cc-extensions-01), which transport-wide congestion
    /// control feedback reports packets by.
    public static let transportWideSequenceNumber = "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"
}
