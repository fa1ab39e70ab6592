public import ICE
public import SecureTransport

/// What the control plane asks of the media plane, and what it reads back.
///
/// ``MediaPlane`` carries the commands out on its data-plane threads; ``RecordingMediaCommands``
/// records them instead, so that the relay core runs in tests and fuzzing without sockets or
/// threads. Opening a transport answers at once (its id and port go into the client's answer);
/// every routing change of one engine outcome goes down together through ``apply(_:)``.
public protocol MediaCommands: AnyObject, Sendable {
    /// The address clients send media to.
    var announcedAddress: String { get }
    /// The IPv6 address clients may send WebRTC media to instead; nil when the WebRTC ports do
    /// not listen on IPv6.
    var announcedAddress6: String? { get }
    /// Whether every WebRTC port also listens on TCP (ICE-TCP): the relay's SDP then names a
    /// passive TCP candidate too.
    var offersICETCP: Bool { get }
    /// Each shard's WebRTC port, in shard order (a WebRTC transport uses its shard's); empty
    /// when WebRTC is off.
    var webRTCPorts: [Int] { get }
    /// Handshake and liveness events of WebRTC transports.
    var events: AsyncStream<MediaPlaneEvent> { get }

    /// Opens a UDP transport on a free port (`profile` nil: plain RTP). With a `group` (its
    /// session's room) it is placed at once; without, when ``place(transports:group:)`` names it.
    /// A `receiving` transport (one that only subscribes) of a room that outgrew its shard goes
    /// to the least loaded one.
    func openTransport(profile: SRTPProfile?, group: String?, receiving: Bool) -> Result<OpenedTransport, MediaPlaneError>
    /// Opens a WebRTC transport, answering ICE checks for `credentials`, on the shard of
    /// `group` (its session's room) or the least loaded one: its port is that shard's.
    /// `receiving` as for ``openTransport(profile:group:receiving:)``.
    func openWebRTCTransport(
        credentials: ICECredentials, audioLevelExtensionId: UInt8, group: String?, receiving: Bool
    ) -> Result<OpenedWebRTCTransport, MediaPlaneError>
    /// Places transports not yet on a shard with `group`'s (a room's) transports; those in
    /// `receiving` only subscribe, and go to the least loaded shard when the room outgrew its own.
    func place(transports ids: [Int], group: String?, receiving: Set<Int>)
    /// Gives a transport the client's key and, optionally, its address (else it latches). Media
    /// goes to a named address only once a packet from it proved that it wants it, unless
    /// `addressGranted` says the room server (or the cluster) vouches for it.
    func connectTransport(id: Int, remote: PeerEndpoint?, clientKey: [UInt8]?, addressGranted: Bool) -> Result<Void, MediaPlaneError>
    /// The peer's ICE credentials from its SDP.
    func setRemoteICECredentials(transportId: Int, credentials: ICECredentials)
    /// An ICE restart of a WebRTC transport: both sides' new credentials. The transport, its
    /// DTLS keys and everything on it stay.
    func restartICE(transportId: Int, local: ICECredentials, remote: ICECredentials)
    /// Starts media on a WebRTC transport with the DTLS-SRTP sessions.
    func connectWebRTCTransport(id: Int, inbound: SRTPSessionHandoff, outbound: SRTPSessionHandoff)
    /// The congestion control a WebRTC transport's SDP settled (transport-wide feedback to its
    /// publisher).
    func setCongestionControl(transportId: Int, _ spec: CongestionControlSpec)
    /// Sends one datagram (a DTLS record) of a WebRTC transport from its shard's WebRTC port.
    func sendWebRTCDatagram(_ datagram: [UInt8], to remote: PeerEndpoint, transportId: Int)
    /// Carries out routing changes in order: each shard they touch gets its part in one mailbox
    /// post, so the data plane never sees half of an outcome.
    func apply(_ changes: [MediaChange])

    /// The newest once-a-second snapshot of the data plane.
    func latestReport() -> MediaPlaneReport
    /// The loudest audio level per source since the previous call.
    func takeAudioLevels() -> [UInt32: AudioLevelSample]
    /// Counts and settings for the overview.
    var status: MediaPlaneStatus { get }
}
