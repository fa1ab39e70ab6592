/// Why the data plane dropped a packet. Every drop is counted under one of these.
public enum DropReason: Int, Sendable, CaseIterable {
    case truncated
    case notRTP
    case notConnected
    case unexpectedSource
    case noInboundKey
    case srtpAuthenticationFailed
    case srtpReplayed
    case srtpMalformed
    case srtpOther
    case malformedRTP
    case malformedRTCP
    case unknownSSRC
    case staleSequence
    case sinkNotConnected
    case waitingForKeyframe
    case oversized
    case sendBufferFull
    case protectFailed
    /// A STUN message on the WebRTC port that no transport accepted (unknown ufrag, bad integrity, malformed).
    case stunRejected
    /// A packet for another shard's subscribers that the pipe to it could not take (full).
    case pipeFull
    /// An RTP packet whose sequence number already arrived from its source lately (duplicated on
    /// the way, repaired or probed over RTX after it came): not forwarded twice. Also, once per
    /// SRTP subscriber, a packet that would go out under an output number already used.
    case duplicate
    /// A packet on a publisher's RFC 4588 retransmission stream whose payload type is not the
    /// one negotiated for that stream.
    case unexpectedPayloadType
    /// A packet on a publisher's retransmission stream that carries no original packet, only
    /// padding: a bandwidth probe, which ends at the relay by design.
    case paddingOnly
    /// RTCP the relay would send on a transport that has no sending key yet.
    case noOutboundKey
    /// A message that arrived over a pipe from another shard for a source this shard does not
    /// hold as the pipe's end (removed while the message was in the ring).
    case pipeUnknownSource
    /// A NACKed packet the subscriber was resent less than one round-trip time ago (named
    /// twice in one NACK, or asked for again too soon): not sent again.
    case retransmissionTooSoon
    /// A NACKed packet that would take the subscriber's retransmissions past their budget (a
    /// share of what its stream sent): not sent.
    case retransmissionOverBudget
    /// A packet for a transport whose explicit address has not proved yet that it wants media
    /// (no authenticated packet from it, no grant from the control plane).
    case addressUnproven
    /// A datagram the kernel refused to send for a reason other than a full buffer: a connected
    /// subscriber's port reported closed (ICMP port unreachable), an unreachable network. The
    /// rest of the batch goes out.
    case sendFailed

    /// The label used in metrics and stats.
    public var label: String {
        switch self {
        case .truncated: "truncated"
        case .notRTP: "not_rtp"
        case .notConnected: "not_connected"
        case .unexpectedSource: "unexpected_source"
        case .noInboundKey: "no_inbound_key"
        case .srtpAuthenticationFailed: "srtp_auth_failed"
        case .srtpReplayed: "srtp_replayed"
        case .srtpMalformed: "srtp_malformed"
        case .srtpOther: "srtp_other"
        case .malformedRTP: "malformed_rtp"
        case .malformedRTCP: "malformed_rtcp"
        case .unknownSSRC: "unknown_ssrc"
        case .staleSequence: "stale_sequence"
        case .sinkNotConnected: "sink_not_connected"
        case .waitingForKeyframe: "waiting_for_keyframe"
        case .oversized: "oversized"
        case .sendBufferFull: "send_buffer_full"
        case .protectFailed: "protect_failed"
        case .stunRejected: "stun_rejected"
        case .pipeFull: "pipe_full"
        case .duplicate: "duplicate"
        case .unexpectedPayloadType: "unexpected_payload_type"
        case .paddingOnly: "padding_only"
        case .noOutboundKey: "no_outbound_key"
        case .pipeUnknownSource: "pipe_unknown_source"
        case .retransmissionTooSoon: "retransmission_too_soon"
        case .retransmissionOverBudget: "retransmission_over_budget"
        case .addressUnproven: "address_unproven"
        case .sendFailed: "send_failed"
        }
    }
}
