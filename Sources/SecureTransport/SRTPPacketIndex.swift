/// SRTP packet indices (RFC 3711 section 3.3.1: rollover counter and sequence number) as
/// libsrtp estimates them, shared by the sending and receiving sides of ``SRTPSession``.
enum SRTPPacketIndex {
    private static let median = 1 << 15

    /// The replay window libsrtp keeps for `replayWindowSize`: a bit vector rounded up to whole
    /// 32-bit words.
    static func windowLength(_ replayWindowSize: Int) -> Int64 {
        Int64((replayWindowSize + 31) / 32 * 32)
    }

    /// libsrtp's `srtp_rdbx_estimate_index`: the rollover counter stays 0 until the index
    /// passes half the sequence space, then follows the guess closest to the highest index.
    static func estimate(local: UInt64, sequenceNumber: UInt16) -> UInt64 {
        guard local > UInt64(median) else { return UInt64(sequenceNumber) }
        let localRollover = UInt32(truncatingIfNeeded: local >> 16)
        let localSequence = Int(UInt16(truncatingIfNeeded: local))
        let sequence = Int(sequenceNumber)
        let rollover: UInt32
        if localSequence < median {
            rollover = sequence - localSequence > median ? localRollover &- 1 : localRollover
        } else {
            rollover = localSequence - median > sequence ? localRollover &+ 1 : localRollover
        }
        return UInt64(rollover) << 16 | UInt64(sequenceNumber)
    }
}
