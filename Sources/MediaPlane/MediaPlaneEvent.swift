/// Something the data plane tells the control plane about a transport. These are handshake,
/// liveness and congestion events, never per-media-packet ones.
public enum MediaPlaneEvent: Sendable, Hashable {
    /// A DTLS record arrived for the transport, from the address its ICE checks came from.
    case dtlsDatagram(transportId: Int, datagram: [UInt8], from: PeerEndpoint)
    /// ICE nominated (or first validated) a remote address: DTLS and media go there now.
    case iceSelected(transportId: Int, remote: PeerEndpoint)
    /// ICE gave up on the transport: no valid check arrived in time (`neverConnected`), or
    /// consent lapsed after it was connected.
    case iceExpired(transportId: Int, neverConnected: Bool)
    /// A subscriber's transport-wide feedback cut the estimate of its downlink by more than
    /// ``MediaCore/estimateDropAnnouncedBelow`` since the last report or such event: the layer
    /// allocator acts now rather than at the next report.
    case estimateDropped(transportId: Int, estimateBps: Int)
    /// A subscriber without transport-wide feedback reported more than
    /// ``MediaCore/heavyReportedLoss`` of what the relay sent lost (at most once per
    /// ``MediaCore/reportedLossIntervalMs`` per transport): the layer allocator acts now.
    case reportedLoss(transportId: Int, lossFraction: Double)
}
