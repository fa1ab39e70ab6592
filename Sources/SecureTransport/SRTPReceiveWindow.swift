/// One SSRC's replay database on the receiving side, as libsrtp keeps it (RFC 3711 section
/// 3.3.2): the highest packet index authenticated, and which of the `size` indices up to it
/// have arrived. The bits live in a ring indexed by packet index, which answers as libsrtp's
/// shifted bitmask does without shifting it.
struct SRTPReceiveWindow {
    private(set) var highest: UInt64
    private var bits: [UInt64]
    private let size: Int64

    /// A window whose first packet has `index`. Allocates (once per SSRC).
    init(firstIndex index: UInt64, size: Int64) {
        highest = index
        self.size = size
        bits = [UInt64](repeating: 0, count: Int((size + 63) / 64))
        set(Int64(bitPattern: index))
    }

    /// Admits one packet with `sequenceNumber` as libsrtp does: estimates its index, refuses it
    /// when the window says it was seen or is too old, else calls `open` with its rollover
    /// counter and, when that authenticates it, records it. Called through the session's table,
    /// it works on the window where it lives, with no copy per packet.
    mutating func admit(_ sequenceNumber: UInt16, open: (_ rolloverCounter: UInt32) -> SRTPStatus) -> SRTPStatus {
        let index = SRTPPacketIndex.estimate(local: highest, sequenceNumber: sequenceNumber)
        let delta = Int64(bitPattern: index &- highest)
        // libsrtp's `srtp_rdbx_check`.
        if delta <= 0 && (delta < -(size - 1) || isSet(Int64(bitPattern: index))) { return .replayed }
        let status = open(UInt32(truncatingIfNeeded: index >> 16))
        if status == .ok { accept(delta: delta) }
        return status
    }

    /// libsrtp's `srtp_rdbx_add_index`: records an authenticated packet `delta` from the highest.
    private mutating func accept(delta: Int64) {
        let index = Int64(bitPattern: highest) + delta
        if delta > 0 {
            // The indices passed over have not arrived (at most the whole window to clear).
            var cleared = Int64(bitPattern: highest) + 1
            let end = index - 1
            if delta > size { cleared = index - size }
            while cleared <= end {
                clear(cleared)
                cleared += 1
            }
            highest = UInt64(bitPattern: index)
        }
        set(index)
    }

    private func slot(_ index: Int64) -> (Int, UInt64) {
        let position = Int(UInt64(bitPattern: index) % UInt64(bits.count * 64))
        return (position >> 6, 1 << UInt64(position & 63))
    }

    private func isSet(_ index: Int64) -> Bool {
        let (word, mask) = slot(index)
        return bits[word] & mask != 0
    }

    private mutating func set(_ index: Int64) {
        let (word, mask) = slot(index)
        bits[word] |= mask
    }

    private mutating func clear(_ index: Int64) {
        let (word, mask) = slot(index)
        bits[word] &= ~mask
    }
}
