/// The packet index (rollover counter and sequence number, RFC 3711 section 3.3.1) a sender
/// protects each SSRC's packets under, estimated exactly as libsrtp's sender does, so that a
/// receiver running libsrtp (or any RFC 3711 receiver) derives the same IV.
///
/// Resent packets (NACK answers keep their sequence number) take the index they had, and
/// never move the highest one back. Like libsrtp, a packet further behind the highest than the
/// replay window is refused.
struct SRTPSendIndices {
    /// The highest index protected per SSRC.
    private var highest: [UInt32: UInt64] = [:]
    /// How far behind the highest index a packet may be: libsrtp's window, in whole 32-bit words.
    let window: Int64

    init(replayWindowSize: Int) {
        window = Int64((replayWindowSize + 31) / 32 * 32)
    }

    private static let median: Int = 1 << 15
    private static let numbers: Int = 1 << 16

    /// The index of `sequenceNumber` for `ssrc`, recorded when it is the highest so far; nil
    /// when it is older than the window allows. Allocates only when an SSRC's first packet
    /// grows the table.
    mutating func index(ssrc: UInt32, sequenceNumber: UInt16) -> UInt64? {
        guard let slot = highest.index(forKey: ssrc) else {
            highest[ssrc] = UInt64(sequenceNumber)
            return UInt64(sequenceNumber)
        }
        let local = highest.values[slot]
        let index = Self.estimate(local: local, sequenceNumber: sequenceNumber)
        let delta = Int64(bitPattern: index &- local)
        if delta > 0 {
            highest.values[slot] = index
        } else if delta < -(window - 1) {
            return nil
        }
        return index
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
