/// What a ``RetransmissionBuffer`` knows about the packet held in one slot.
struct RetransmissionSlotHeader {
    /// The byte count that marks a slot as holding no packet.
    static let emptyLength: Int32 = -1

    /// The sequence number of the packet in the slot.
    var sequenceNumber: UInt16
    /// The packet's size in bytes, or ``emptyLength``.
    var length: Int32
    /// When the packet was stored, in monotonic milliseconds.
    var storedMs: Int64
    /// Which store put the packet there (``RetransmissionBuffer/serial(of:)``); 0 for none.
    var serial: UInt32

    /// A header for a slot that holds nothing.
    static let empty = RetransmissionSlotHeader(sequenceNumber: 0, length: emptyLength, storedMs: 0, serial: 0)
}
