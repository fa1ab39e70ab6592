/// What carries packets from one media core to another within one process: an in-memory ring
/// (``PacketRing``) between two data-plane threads. Each packet travels with a tag (``PipeTag``)
/// that says what it is and which source it belongs to. Between nodes no carrier of this kind is
/// used: an ordinary SRTP transport per node pair, the media pipe, carries the tracks (see
/// docs/ARCHITECTURE.md, "Across nodes, the pipe is an ordinary SRTP transport").
protocol PacketCarrier: AnyObject {
    /// Sends one packet; false when the carrier cannot take it now (the caller counts a drop).
    func push(_ packet: UnsafeRawBufferPointer, tag: UInt64) -> Bool

    /// Hands the next packet that arrived to `body` (valid only during the call); false when
    /// none is waiting.
    func pop(_ body: (UnsafeMutableRawBufferPointer, UInt64) -> Void) -> Bool
}

extension PacketRing: PacketCarrier {}
