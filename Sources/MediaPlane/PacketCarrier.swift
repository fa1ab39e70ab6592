/// What carries packets from one media core to another: between the data-plane threads of one
/// process an in-memory ring (``PacketRing``); between nodes, a UDP pipe. Each packet travels
/// with a tag (``PipeTag``) that says what it is and which source it belongs to.
protocol PacketCarrier: AnyObject {
    /// Sends one packet; false when the carrier cannot take it now (the caller counts a drop).
    func push(_ packet: UnsafeRawBufferPointer, tag: UInt64) -> Bool

    /// Hands the next packet that arrived to `body` (valid only during the call); false when
    /// none is waiting.
    func pop(_ body: (UnsafeMutableRawBufferPointer, UInt64) -> Void) -> Bool
}

extension PacketRing: PacketCarrier {}
