/// A media core's two-way connection to one other core (another shard of this process, or
/// another node): packets of local sources go out to the remote sources there, keyframe
/// requests come back, and the other way round.
final class PipeLink {
    /// The other end: a shard index (or a node's pipe id).
    let peer: Int
    let outbound: any PacketCarrier
    let inbound: any PacketCarrier
    /// Set when something was pushed since the peer was last woken; the shell wakes it once per
    /// batch, not once per packet.
    var wakePending = false
    /// Stands in for the transport of the sources that arrive over this link: it never sends,
    /// so receiver reports and NACKs for them stay with the core that owns the publisher.
    let placeholder: TransportState

    init(peer: Int, outbound: any PacketCarrier, inbound: any PacketCarrier) {
        self.peer = peer
        self.outbound = outbound
        self.inbound = inbound
        placeholder = TransportState(id: -1 - peer, fd: -1, profile: nil, outbound: nil, rtcpSSRC: 0, slotCount: 1, slotCapacity: 16)
    }

    @inline(__always)
    func push(_ packet: UnsafeRawBufferPointer, tag: UInt64) -> Bool {
        guard outbound.push(packet, tag: tag) else { return false }
        wakePending = true
        return true
    }
}
