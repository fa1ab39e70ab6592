import CSocketShims
import SecureTransport

/// One media transport as the data-plane thread owns it: its socket, keys, peer address, the
/// tracks it carries and its send queue. Only the data-plane thread touches it.
final class TransportState {
    let id: Int
    let fd: Int32
    let profile: SRTPProfile?
    var outbound: SRTPSession?
    var inbound: SRTPSession?
    /// The peer's address key (IPv4Endpoint.key); 0 until connected or latched.
    var remoteKey: UInt64 = 0
    var remote = IPv4Endpoint(ip: 0, port: 0)
    /// A second peer address RTCP authenticated from (RTP port + 1 senders); 0 until seen.
    var rtcpRemoteKey: UInt64 = 0
    /// connectTransport has been called (so latching is allowed).
    var connected = false
    /// Sources arriving on this transport, by SSRC.
    var sources: [UInt32: SourceState] = [:]
    /// Sinks delivered on this transport, by output SSRC (to route RTCP feedback).
    var sinks: [UInt32: SinkState] = [:]
    /// The SSRC the relay uses in RTCP it originates on this transport.
    let rtcpSSRC: UInt32
    let sendBatch: OpaquePointer
    let slotCapacity: Int
    let slotCount: Int
    var pending = 0
    var flushListed = false
    var report = TransportReport()

    init(id: Int, fd: Int32, profile: SRTPProfile?, outbound: SRTPSession?, rtcpSSRC: UInt32, slotCount: Int, slotCapacity: Int) {
        self.id = id
        self.fd = fd
        self.profile = profile
        self.outbound = outbound
        self.rtcpSSRC = rtcpSSRC
        self.slotCount = slotCount
        self.slotCapacity = slotCapacity
        self.sendBatch = pkr_batch_create(UInt32(slotCount), UInt32(slotCapacity))
    }

    deinit {
        pkr_batch_destroy(sendBatch)
    }

    var isPlain: Bool { profile == nil }
}
