/// The congestion control a transport takes part in, as its SDP settled it (WebRTC) or its
/// `createTransport` asked for it (SRTP, one extension id both ways).
public struct CongestionControlSpec: Sendable, Hashable {
    /// Toward a publisher: the header-extension id of the transport-wide sequence number
    /// (draft-holmer-rmcat-transport-wide-cc-extensions-01) its packets carry, 0 for none. The
    /// relay records each packet's arrival and sends transport-wide feedback (RTCP RTPFB FMT 15),
    /// which the publisher's send-side estimator runs on.
    public var receivedSequenceExtensionId: UInt8
    /// Toward a subscriber: the header-extension id under which the relay stamps a
    /// transport-wide sequence number on every RTP packet it sends, 0 for none. The subscriber's
    /// transport-wide feedback drives the relay's estimate of its downlink.
    public var sentSequenceExtensionId: UInt8

    public init(receivedSequenceExtensionId: UInt8 = 0, sentSequenceExtensionId: UInt8 = 0) {
        self.receivedSequenceExtensionId = receivedSequenceExtensionId
        self.sentSequenceExtensionId = sentSequenceExtensionId
    }

    /// No congestion control.
    public static let none = CongestionControlSpec()
}
