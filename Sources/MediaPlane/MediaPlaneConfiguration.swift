public import CSocketShims
public import SecureTransport
public import StreamCore

/// Settings of the media plane.
public struct MediaPlaneConfiguration: Sendable, Hashable {
    /// The local IPv4 address media sockets bind to.
    public var bindAddress: String = "127.0.0.1"
    /// The address told to clients (for deployments behind NAT); defaults to bindAddress.
    public var announcedAddress: String?
    /// An IPv6 address the WebRTC ports also listen on (UDP, and TCP with ``webRTCTCP``), each
    /// on its IPv4 port's number; `::` takes every interface. nil (the default): IPv4 only.
    public var bindAddress6: String?
    /// The IPv6 address told to clients in the relay's candidates; defaults to bindAddress6
    /// (which must then not be `::`).
    public var announcedAddress6: String?
    /// The first and last UDP port of plain (SRTP) transports.
    public var portRange: ClosedRange<Int> = 40000...40999
    /// Socket buffer sizes in bytes (the relay asks for more than rmem_max when it is root).
    public var receiveBufferBytes: Int = 4 << 20
    public var sendBufferBytes: Int = 4 << 20
    /// Datagrams read per recvmmsg call.
    public var receiveBatchSize: Int = 32
    /// Datagrams queued per transport before a sendmmsg flush.
    public var sendBatchSize: Int = 32
    /// UDP generic segmentation offload for what a transport's batch carries; `auto` resolves
    /// to `on` or `off` when the media plane is created (``MediaPlane/segmentationOffload``).
    public var segmentationOffload: UDPOffload = .auto
    /// With segmentation offload on, a video packet shorter by at most this many bytes than the
    /// run of equal-size datagrams queued before it for the same subscriber is padded to that
    /// size (RFC 3550 §5.1, which every receiver strips), so the run goes on in one message
    /// instead of ending; 0 turns padding off, 255 is the most one RTP packet can carry. Audio is
    /// never padded.
    public var segmentPaddingBytes: Int = 0
    /// UDP generic receive offload on the sockets media arrives on; `auto` resolves to `on` or
    /// `off` when the media plane is created (``MediaPlane/receiveOffload``).
    public var receiveOffload: UDPOffload = .auto
    /// Whether each media socket gets a send-only twin on its port, where the kernel supports it
    /// (resolved when the media plane is created, ``MediaPlane/sendOnlySockets``). A socket in an
    /// epoll set is woken by every datagram it sends; its twin is in none.
    public var sendOnlySockets = true
    /// Whether an RTP transport's sockets are connected to its peer once the peer is fixed
    /// (given at connection, or latched), where the kernel supports it next to send-only twins
    /// (resolved when the media plane is created, ``MediaPlane/connectedSockets``). A datagram
    /// sent on a connected socket takes its cached route instead of a route lookup. A plain
    /// transport connects its own socket, and the kernel drops other senders' datagrams, which
    /// it drops anyway; an SRTP transport, which also takes authenticated RTCP from a second
    /// address, reads its peer on a third, connected socket and keeps its own for the rest.
    public var connectedSockets = true
    /// Packets kept per video source for answering NACKs.
    public var retransmissionBufferPackets: Int = 512
    /// Oldest packet retransmitted, in milliseconds.
    public var retransmissionMaximumAgeMs: Int64 = 1000
    /// How often one packet is resent to one subscriber (once per round-trip time) and how many
    /// bytes a subscriber's NACKs may bring (a share of its stream's).
    public var retransmissionPolicy = RetransmissionPolicy()
    /// Minimum gap between keyframe requests sent to one source, merged across all its subscribers.
    public var keyframeRequestIntervalMs: Int64 = 500
    /// How often a new subscriber's keyframe request is repeated until a keyframe arrives: every
    /// `keyframeRepeatIntervalMs` for `keyframeRepeatAttempts` requests, then every
    /// `keyframeRepeatSlowIntervalMs` while a connected subscriber still waits.
    public var keyframeRepeatIntervalMs: Int64 = 300
    public var keyframeRepeatAttempts: Int = 10
    public var keyframeRepeatSlowIntervalMs: Int64 = 2000
    /// The first WebRTC port (ICE-lite, DTLS, SRTP): shard `i` reads `webRTCPort + i`, shared by
    /// the WebRTC transports that live on it; 0 lets the system choose each shard's port; nil
    /// turns WebRTC off.
    public var webRTCPort: Int? = 7702
    /// Whether each WebRTC port also listens on TCP, the same number, for clients whose network
    /// blocks UDP (ICE-TCP, RFC 6544: the relay's SDP names a passive TCP candidate beside the
    /// UDP one, at a lower priority, so clients that can use UDP do).
    public var webRTCTCP = true
    /// ICE-TCP connections each shard keeps open at most (at most
    /// ``StreamConnections/maximumLimit``); more are closed as they arrive.
    public var webRTCTCPConnections = 1024
    /// Of those, how many one client IPv4 address or IPv6 /64 may hold: a single address cannot
    /// take every slot, while an office's users behind one NAT address still fit.
    public var webRTCTCPConnectionsPerAddress = 256
    /// How long a WebRTC transport may go without a valid ICE check: before its first one
    /// (counted from the client's SDP) and between consent checks (RFC 7675 uses 30 s).
    public var iceTimeoutMs: Int64 = 30_000

    /// Transports of one room on its shard before the room's receiving transports (those that
    /// only subscribe) go to the least loaded shard, fed through the pipes: a popular room's
    /// audience then uses every shard, while smaller rooms stay on one and cross none. 0
    /// spreads every receiving transport.
    public var spreadRoomAfter: Int = 300

    /// Data-plane threads (shards), each owning its transports outright; by default one per CPU
    /// the process may run on, at most ``maximumThreads``.
    public var threads: Int = min(MediaPlaneConfiguration.availableCPUs, MediaPlaneConfiguration.maximumThreads)

    public init() {}

    /// The CPUs this process may run on (its affinity mask).
    public static var availableCPUs: Int { Int(pkr_available_cpus()) }

    /// The most data-plane threads a media plane runs. Every two shards whose rooms watch each
    /// other hold a link of two rings (about 3.3 MB) while they do, so the worst case grows with
    /// the square of the shards: 64 shards could hold 2 016 links, 6.6 GB.
    public static let maximumThreads = 64
}
