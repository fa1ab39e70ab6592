import CSocketShims
import ICE
import SecureTransport
import StreamCore

/// One media transport as the data-plane thread owns it: its socket, keys, peer address, the
/// tracks it carries and its send queue. Only the data-plane thread touches it.
final class TransportState {
    let id: Int
    /// The socket the transport's datagrams arrive on (-1 for WebRTC transports, which share one).
    let fd: Int32
    /// The socket its datagrams leave on: `fd`'s send-only twin, which is in no epoll set, so
    /// sending wakes nothing (see pkr_udp_open_send_twin), or `fd` itself.
    let sendFD: Int32
    /// An SRTP transport's socket connected to its fixed peer, where the peer's datagrams arrive
    /// once it exists (see pkr_udp_open_connected_reader); `fd` then hears only other senders,
    /// such as RTCP from RTP port + 1. -1 until then, and always on plain and WebRTC transports.
    var connectedReaderFD: Int32 = -1
    /// Set when the connected reader opens: what the peer sent before (queued on `fd`) and in
    /// the moment between the two connections (queued on the twin) is read before anything the
    /// reader holds, once, so that the peer's packets keep their order.
    var connectedReaderSettling = false
    /// The peer `connectedReaderFD` is connected to, the source of everything it reads: kept
    /// apart from `remote`, which a later `connectTransport` may move while the reader stays.
    var connectedReaderPeer = PeerEndpoint(ip: 0, port: 0)
    let profile: SRTPProfile?
    var outbound: SRTPSession? {
        didSet { noteOutbound() }
    }
    /// ``outbound`` without reference counting, for the per-packet path: reading the optional
    /// class reference to seal with retains and releases it, two atomic operations per egress
    /// packet. Valid exactly as long as `outbound` holds the same session (kept in step by it).
    private(set) var outboundReference: Unmanaged<SRTPSession>?
    /// Whether ``outbound`` seals the rest of a packet from where it lies (``SRTPSession/sealsTailInPlace``),
    /// read once per session rather than through a call per packet.
    private(set) var sealsTailInPlace = false
    var inbound: SRTPSession?
    /// The peer's address key (PeerEndpoint.key); 0 until connected or latched.
    var remoteKey: UInt64 = 0
    var remote = PeerEndpoint(ip: 0, port: 0)
    /// A second peer address RTCP authenticated from (RTP port + 1 senders); 0 until seen.
    var rtcpRemoteKey: UInt64 = 0
    /// connectTransport has been called (so latching is allowed).
    var connected = false
    /// Whether the peer's address has shown that it wants what the relay sends: a packet from
    /// it authenticated (or, on a plain transport, arrived), the relay latched it from such a
    /// packet, ICE checked it, or the control plane vouched for it. Until then nothing is sent.
    var remoteProven = false
    /// Sources arriving on this transport, by SSRC.
    var sources: [UInt32: SourceState] = [:]
    /// Simulcast layers waiting for their first packet, which names them by rid.
    var ridSources: [SourceState] = []
    /// Sources by the SSRC of their RFC 4588 retransmission stream.
    var rtxSources: [UInt32: SourceState] = [:]
    /// Sinks delivered on this transport, by output SSRC (to route RTCP feedback).
    var sinks: [UInt32: SinkState] = [:]
    /// The SSRC the relay uses in RTCP it originates on this transport.
    let rtcpSSRC: UInt32
    let sendBatch: OpaquePointer
    /// Where queueing writes each datagram of `sendBatch`.
    let sendLayout: SendBatchLayout
    let slotCapacity: Int
    let slotCount: Int
    var pending = 0
    var flushListed = false
    /// Bytes sealing adds to an RTP packet (0 on plain transports).
    let rtpTrailerLength: Int
    /// The run of the send queue that would leave as one UDP_SEGMENT message so far, as
    /// pkr_batch_send_segmented will cut it: its segment size (0 when no run is open: the queue
    /// is empty, or its last datagram was shorter and closed the run), datagrams and bytes. Kept
    /// only while segment padding is on (``MediaCore/segmentPaddingLimit``).
    var runSegmentSize = 0
    var runSegments = 0
    var runBytes = 0
    var report = TransportReport()
    /// `report.bytesOut` at the last report, for `sendBitrateBps`.
    var bytesOutAtLastReport: UInt64 = 0
    /// The estimate the control plane last heard, by a report or an `estimateDropped` event.
    var announcedEstimateBps = 0
    /// When heavy reported loss was last announced (`reportedLoss`).
    var lossAnnouncedMs: Int64 = .min / 2
    /// WebRTC transports share the relay's one WebRTC socket, so removing one must not close it.
    let sharesSocket: Bool
    /// The ICE-lite agent of a WebRTC transport; nil on plain SRTP transports.
    var ice: ICELiteAgent?
    /// The addresses that passed an ICE check for this transport (keys of the address map).
    var iceAddressKeys: [UInt64] = []
    /// WebRTC subscribers negotiated their own header-extension ids, which the publisher's
    /// packets do not share: outgoing packets drop the publisher's extensions and carry only
    /// the audio level, under this id (0: leave packets as they are), and the transport-wide
    /// number under ``sentSequenceExtensionId`` when it is not 0.
    var audioLevelExtensionId: UInt8 = 0
    var rewritesExtensions = false
    /// Transport-wide congestion control toward the publisher: the header-extension id of the
    /// transport-wide sequence number its packets carry (0: none), and their arrivals, which
    /// the relay reports back in transport-wide feedback.
    var receivedSequenceExtensionId: UInt8 = 0
    var feedbackRecorder: TransportFeedbackRecorder?
    /// Transport-wide congestion control toward the subscriber: the id under which every RTP
    /// packet sent carries its transport-wide sequence number (0: none).
    var sentSequenceExtensionId: UInt8 = 0
    /// The estimate of the subscriber's downlink: from its transport-wide feedback when the
    /// relay stamps numbers, else from its receiver reports (and REMB). Nil until the transport
    /// carries a sink.
    var estimator: SendSideBandwidthEstimator? {
        didSet { estimatorReference = estimator.map { Unmanaged.passUnretained($0) } }
    }
    /// ``estimator`` without reference counting, for stamping each egress packet (as
    /// ``outboundReference`` is for sealing): valid exactly as long as `estimator` holds it.
    private(set) var estimatorReference: Unmanaged<SendSideBandwidthEstimator>?
    /// The probe cluster being sent, if any (``MediaCore/sendProbes()``).
    var probe: ProbeBurst?
    /// Pacing (``MediaCore/pacedCount(on:count:)``): the bytes the transport may send now, when
    /// they were last topped up, and whether its queue holds packets the pacer kept back.
    var pacingBudgetBytes = 0.0
    var pacingUpdatedUs: Int64 = 0
    var pacedListed = false
    /// What the transport has been sending lately (bits per second, smoothed over 100 ms
    /// windows), and where the current window began (time, and bytes sent by then).
    var sendingRateBps = 0.0
    var sendingWindowUs: Int64 = 0
    var sendingWindowBytes: UInt64 = 0

    init(
        id: Int, fd: Int32, sendFD: Int32 = -1, profile: SRTPProfile?, outbound: SRTPSession?, rtcpSSRC: UInt32, slotCount: Int, slotCapacity: Int,
        sharesSocket: Bool = false
    ) {
        self.id = id
        self.sharesSocket = sharesSocket
        self.fd = fd
        self.sendFD = sendFD >= 0 ? sendFD : fd
        self.profile = profile
        rtpTrailerLength = profile?.rtpTrailerLength ?? 0
        self.outbound = outbound
        self.rtcpSSRC = rtcpSSRC
        self.slotCount = slotCount
        self.slotCapacity = slotCapacity
        self.sendBatch = pkr_batch_create(UInt32(slotCount), UInt32(slotCapacity))
        sendLayout = SendBatchLayout(of: sendBatch)
        noteOutbound()
    }

    /// Keeps ``outboundReference`` and ``sealsTailInPlace`` in step with ``outbound``.
    private func noteOutbound() {
        outboundReference = outbound.map { Unmanaged.passUnretained($0) }
        sealsTailInPlace = outbound?.sealsTailInPlace ?? false
    }

    deinit {
        pkr_batch_destroy(sendBatch)
    }

    var isPlain: Bool { profile == nil }

    /// Whether packets can go out: the peer's address is known and has proved itself (see
    /// ``remoteProven``) and, unless the transport is plain RTP, the sending key exists (a
    /// WebRTC transport gets it only when DTLS completes; until then nothing may leave in the
    /// clear).
    @inline(__always)
    var canSend: Bool { remoteKey != 0 && remoteProven && (profile == nil || outbound != nil) }

    /// Whether the only thing that keeps the transport from sending is its address's proof.
    var awaitsAddressProof: Bool { remoteKey != 0 && !remoteProven }
}
