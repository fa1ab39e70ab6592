import StreamCore

/// An SRTP sink's record of what went out under its output sequence numbers
/// (``SinkState/sentRecord``). The SRTP index of a packet is its SSRC, rollover counter and
/// sequence number, so an output number used twice with different bytes seals two plaintexts
/// under one AES-GCM nonce (or one AES-CM keystream). The source's duplicate window keeps a
/// repeated packet from being forwarded twice as long as it places numbers as the subscriber's
/// rewriter does; around a rewriter that restarted on its own (after a silence only it saw) the
/// two can differ, and the record is what holds then.
///
/// One 64-bit entry per output number modulo ``sentRecordLength``: the number (16 bits), the
/// serial of the packet in its source's retransmission buffer (32 bits; 0 when the packet was
/// not stored), its padding (8 bits) and a bit that marks the entry as written.
extension MediaCore {
    /// How many of an SRTP sink's last output numbers are recorded: as far back as its rewriter
    /// maps a late packet (``TrackRewriter/restartDistance``), and more than a source's
    /// retransmission buffer holds by default, so every packet a NACK can still get is known.
    static let sentRecordLength = 1024

    /// Whether output number `sequenceNumber` already went out, as far as the record reaches.
    @inline(__always)
    static func wasSent(_ sequenceNumber: UInt16, in record: UnsafeMutablePointer<UInt64>) -> Bool {
        let entry = record[Int(sequenceNumber) & (sentRecordLength - 1)]
        return entry & 1 != 0 && UInt16(truncatingIfNeeded: entry >> 48) == sequenceNumber
    }

    /// Notes that output number `sequenceNumber` went out as the stored packet `serial` with
    /// `padding` bytes of padding.
    @inline(__always)
    static func recordSent(_ sequenceNumber: UInt16, serial: UInt32, padding: Int, in record: UnsafeMutablePointer<UInt64>) {
        record[Int(sequenceNumber) & (sentRecordLength - 1)] =
            UInt64(sequenceNumber) << 48 | UInt64(serial) << 16 | UInt64(UInt8(truncatingIfNeeded: padding)) << 8 | 1
    }

    /// Keeps which numbers went out but forgets as what, when the sink's packets change (a new
    /// payload type): no number is used again, and none is repaired, since a repair would no
    /// longer be the same bytes.
    static func forgetSentPackets(in record: UnsafeMutablePointer<UInt64>) {
        for index in 0..<sentRecordLength { record[index] &= ~(UInt64(UInt32.max) << 16) }
    }

    /// The stored packet and padding that went out as output number `sequenceNumber`; nil when it
    /// is no longer (or never was) recorded, or was not stored, and a repair could not repeat it.
    static func sentPacket(_ sequenceNumber: UInt16, in record: UnsafeMutablePointer<UInt64>) -> (serial: UInt32, padding: Int)? {
        guard wasSent(sequenceNumber, in: record) else { return nil }
        let entry = record[Int(sequenceNumber) & (sentRecordLength - 1)]
        let serial = UInt32(truncatingIfNeeded: entry >> 16)
        guard serial != 0 else { return nil }
        return (serial, Int(UInt8(truncatingIfNeeded: entry >> 8)))
    }
}
