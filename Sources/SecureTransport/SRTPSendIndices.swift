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
        window = SRTPPacketIndex.windowLength(replayWindowSize)
    }

    /// The index of `sequenceNumber` for `ssrc`, recorded when it is the highest so far; nil
    /// when it is older than the window allows. Allocates only when an SSRC's first packet
    /// grows the table.
    mutating func index(ssrc: UInt32, sequenceNumber: UInt16) -> UInt64? {
        guard let slot = highest.index(forKey: ssrc) else {
            highest[ssrc] = UInt64(sequenceNumber)
            return UInt64(sequenceNumber)
        }
        let local = highest.values[slot]
        let index = SRTPPacketIndex.estimate(local: local, sequenceNumber: sequenceNumber)
        let delta = Int64(bitPattern: index &- local)
        if delta > 0 {
            highest.values[slot] = index
        } else if delta < -(window - 1) {
            return nil
        }
        return index
    }
}
