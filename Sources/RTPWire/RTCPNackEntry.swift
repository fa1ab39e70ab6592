/// One generic NACK entry (RFC 4585 section 6.2.1): a lost packet plus a bitmask of the
/// following 16 packets that were lost too.
public struct RTCPNackEntry: Sendable, Equatable {
    /// The sequence number of the first lost packet (PID).
    public var packetID: UInt16
    /// Bit i set means packet `packetID + i + 1` was lost as well (BLP).
    public var lostBitmask: UInt16

    /// Creates an entry from its two wire fields.
    public init(packetID: UInt16, lostBitmask: UInt16) {
        self.packetID = packetID
        self.lostBitmask = lostBitmask
    }

    /// How many packets the entry reports lost (1 to 17).
    public var lostCount: Int { 1 + lostBitmask.nonzeroBitCount }

    /// Calls `body` with every sequence number the entry reports lost, in increasing order
    /// (wrapping past 65535).
    public func forEachLost(_ body: (UInt16) -> Void) {
        body(packetID)
        var remaining = lostBitmask
        while remaining != 0 {
            let bit = remaining.trailingZeroBitCount
            body(packetID &+ UInt16(bit + 1))
            remaining &= remaining &- 1
        }
    }

    /// Whether the entry reports `sequenceNumber` lost.
    public func contains(_ sequenceNumber: UInt16) -> Bool {
        let delta = sequenceNumber &- packetID
        if delta == 0 { return true }
        return delta <= 16 && lostBitmask & (1 << (delta - 1)) != 0
    }
}
