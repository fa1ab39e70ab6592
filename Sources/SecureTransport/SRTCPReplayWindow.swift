/// One SSRC's SRTCP replay database, as libsrtp keeps it (`srtp_rdb_t`): the 128 indices from
/// `start` on, and which of them have been authenticated. Indices past the window are new;
/// indices before it are too old.
struct SRTCPReplayWindow {
    private var start: UInt32 = 0
    /// Bit `i` of the 128: index `start + i` arrived (`low` holds 0-63, `high` 64-127).
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// libsrtp's `srtp_rdb_check`: `.ok`, or `.replayed` when the index arrived already or lies
    /// before the window.
    func check(_ index: UInt32) -> SRTPStatus {
        if UInt64(index) >= UInt64(start) + 128 { return .ok }
        if index < start { return .replayed }
        return bit(Int(index - start)) ? .replayed : .ok
    }

    /// libsrtp's `srtp_rdb_add_index`, for an index that passed ``check(_:)`` and authenticated:
    /// marks it, sliding the window forward so that it ends at a newer index.
    mutating func add(_ index: UInt32) {
        guard index >= start else { return }
        let delta = UInt64(index - start)
        if delta < 128 {
            set(Int(delta))
            return
        }
        let shift = delta - 127
        if shift >= 128 {
            low = 0
            high = 0
        } else if shift >= 64 {
            low = high >> (shift - 64)
            high = 0
        } else if shift > 0 {
            low = (low >> shift) | (high << (64 - shift))
            high >>= shift
        }
        start += UInt32(shift)
        set(127)
    }

    private func bit(_ position: Int) -> Bool {
        position < 64 ? low & (1 << UInt64(position)) != 0 : high & (1 << UInt64(position - 64)) != 0
    }

    private mutating func set(_ position: Int) {
        if position < 64 { low |= 1 << UInt64(position) } else { high |= 1 << UInt64(position - 64) }
    }
}
