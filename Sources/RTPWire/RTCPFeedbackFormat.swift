/// Feedback message types (the FMT field) of RTPFB and PSFB packets.
///
/// The same number means different messages under the two packet types, so each constant
/// names the packet type it belongs to.
public enum RTCPFeedbackFormat {
    /// RTPFB: generic negative acknowledgement, RFC 4585 section 6.2.1.
    public static let genericNACK: UInt8 = 1
    /// RTPFB: transport-wide congestion control feedback (transport-cc).
    public static let transportWideCongestionControl: UInt8 = 15
    /// PSFB: picture loss indication, RFC 4585 section 6.3.1.
    public static let pictureLossIndication: UInt8 = 1
    /// PSFB: full intra request, RFC 5104 section 4.3.1.
    public static let fullIntraRequest: UInt8 = 4
    /// PSFB: application layer feedback, in practice REMB.
    public static let applicationLayer: UInt8 = 15
}
