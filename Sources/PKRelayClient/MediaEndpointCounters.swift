/// What a ``MediaEndpoint`` received, by outcome.
public struct MediaEndpointCounters: Sendable, Hashable {
    /// Every datagram read from the socket.
    public var datagrams = 0
    /// RTP packets accepted (retransmissions included).
    public var rtpPackets = 0
    /// Retransmissions recognised (a byte-identical repeat of an accepted packet).
    public var retransmissions = 0
    /// Compound RTCP packets accepted.
    public var rtcpPackets = 0
    /// Packets whose SRTP/SRTCP authentication failed (wrong key or altered).
    public var authenticationFailures = 0
    /// Replays that were not byte-identical repeats.
    public var replays = 0
    /// Anything else that could not be parsed or decrypted.
    public var otherFailures = 0

    /// Creates zeroed counters.
    public init() {}
}
