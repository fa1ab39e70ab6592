import ICE
import SecureTransport

/// A change the control plane posts to the data-plane thread's mailbox.
enum MediaCommand: Sendable {
    /// `fd` is the socket the transport's datagrams arrive on; `sendFD` its send-only twin, or
    /// -1 to send on `fd` as well.
    case addTransport(id: Int, fd: Int32, port: Int, profile: SRTPProfile?, outbound: SRTPSessionHandoff?, sendFD: Int32 = -1)
    /// `remote`: the peer's address, nil to latch it from the first authenticated packet.
    /// Nothing is sent to a given address until an authenticated packet arrived from it, unless
    /// `addressGranted` says the control plane vouches for it.
    case connectTransport(id: Int, remote: PeerEndpoint?, inbound: SRTPSessionHandoff?, addressGranted: Bool = false)
    case removeTransport(id: Int)
    case addWebRTCTransport(id: Int, agent: ICELiteAgent, audioLevelExtensionId: UInt8)
    case setRemoteICECredentials(id: Int, credentials: ICECredentials)
    /// An ICE restart: checks must name the new credentials from now on.
    case restartICE(id: Int, local: ICECredentials, remote: ICECredentials)
    case connectWebRTCTransport(id: Int, inbound: SRTPSessionHandoff, outbound: SRTPSessionHandoff)
    case setCongestionControl(id: Int, CongestionControlSpec)
    case addSource(MediaSourceSpec)
    case removeSource(id: UInt32)
    case addSink(MediaSinkSpec)
    case removeSink(id: UInt32)
    case bind(sink: UInt32, source: UInt32)
    case switchSource(sink: UInt32, source: UInt32)
    case unbind(sink: UInt32)
    case setSinkPayloadType(sink: UInt32, payloadType: UInt8)
    case setSinkRetransmission(sink: UInt32, ssrc: UInt32, payloadType: UInt8)
    case requestKeyframe(source: UInt32)
    case restartSinkAtKeyframe(sink: UInt32)
    /// Sends a source's packets (and sender reports) to the remote source of the same id across
    /// the link to `peer` as well.
    case addPipeOutlet(source: UInt32, peer: Int)
    case removePipeOutlet(source: UInt32, peer: Int)
    /// A source fed by the link from `peer` (the core that owns the publisher) instead of a
    /// transport; it fans out like a local one, and its keyframe requests go back over the link.
    case addRemoteSource(MediaSourceSpec, peer: Int)
    /// Connects this shard's core to another's (before the first pipe outlet between them).
    case addLink(PipeLinkHandoff)
    /// Lets go of the link to `peer`, which nothing uses any more: its rings are freed once
    /// both ends have let go.
    case removeLink(peer: Int)
    /// A datagram of the control plane's (a DTLS record) for a WebRTC client that reached the
    /// shard over ICE-TCP or IPv6: only the shard's thread writes to its connections and knows
    /// which address an IPv6 endpoint names.
    case sendWebRTCDatagram([UInt8], to: PeerEndpoint)
    case stop
}
