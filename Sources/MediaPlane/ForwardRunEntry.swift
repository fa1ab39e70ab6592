import RTPWire
import StreamCore

/// One packet of a forward run: a packet of the receive batch whose source-side work is done
/// and whose copies to the source's sinks are still to be made, with what every copy shares.
struct ForwardRunEntry {
    var packet: UnsafeRawBufferPointer
    var header: RTPHeader
    var keyframe: Bool
    var audioLevel: (level: UInt8, voiceActivity: Bool)?
    var vp8Fields: VP8DescriptorFields?
    /// The packet's serial in its source's retransmission buffer, for SRTP sinks' records.
    var serial: UInt32
}
