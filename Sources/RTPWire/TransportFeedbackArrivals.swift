/// The arrivals a transport-wide congestion control feedback reports, as its writer reads them
/// (``RTCPWriter/writeTransportFeedback(senderSSRC:mediaSSRC:baseSequenceNumber:maximumPacketCount:feedbackPacketCount:arrivals:into:at:)``).
///
/// A conforming value is usually a view of the receiver's arrival record; the writer is generic
/// over it, so reading costs a call that the compiler can inline, and nothing is allocated.
public protocol TransportFeedbackArrivals {
    /// When the packet `offset` transport-wide sequence numbers after the feedback's base arrived,
    /// in microseconds on the receiver's monotonic clock; nil when it has not arrived.
    func arrivalUs(at offset: Int) -> Int64?
}
