/// The packet index (rollover counter and sequence number, RFC 3711 section 3.3.1) a sender
/// protects each SSRC's packets under, estimated exactly as libsrtp's sender does, so that a
/// receiver running libsrtp (or any RFC 3711 receiver) derives the same IV.
///
/// Resent packets (NACK answers keep their sequence number) take the index they had, and
/// never move the highest one back. Like libsrtp, a packet further behind the highest than the
/// replay window is refused.
struct SRTPSendIndices {
    /// The highest index protected per SSRC, for every SSRC but the current one.
    private var highest: [UInt32: UInt64] = [:]
    /// The SSRC protected last and its highest index, kept out of the table: a sender's packets
    /// come in runs of one SSRC (a subscriber's track, sealed packet after packet), and a
    /// comparison is all such a packet costs, where a table lookup hashes the SSRC each time.
    private var currentSSRC: UInt32 = 0
    private var currentHighest: UInt64 = 0
    private var hasCurrent = false
    /// How far behind the highest index a packet may be: libsrtp's window, in whole 32-bit words.
    let window: Int64

    init(replayWindowSize: Int) {
        window = SRTPPacketIndex.windowLength(replayWindowSize)
    }

    /// The index of `sequenceNumber` for `ssrc`, recorded when it is the highest so far; nil
    /// when it is older than the window allows. Allocates only when an SSRC's first packet
    /// after another SSRC's grows the table.
    @inline(__always)
    mutating func index(ssrc: UInt32, sequenceNumber: UInt16) -> UInt64? {
        if ssrc != currentSSRC || !hasCurrent { makeCurrent(ssrc, sequenceNumber: sequenceNumber) }
        let local = currentHighest
        let index = SRTPPacketIndex.estimate(local: local, sequenceNumber: sequenceNumber)
        let delta = Int64(bitPattern: index &- local)
        if delta > 0 {
            currentHighest = index
        } else if delta < -(window - 1) {
            return nil
        }
        return index
    }

    /// Puts the current SSRC's highest index back into the table and takes `ssrc`'s out of it;
    /// an SSRC seen for the first time starts at `sequenceNumber`, its first packet's index
    /// (rollover counter 0), as libsrtp's sender starts.
    private mutating func makeCurrent(_ ssrc: UInt32, sequenceNumber: UInt16) {
        if hasCurrent { highest[currentSSRC] = currentHighest }
        currentSSRC = ssrc
        currentHighest = highest.removeValue(forKey: ssrc) ?? UInt64(sequenceNumber)
        hasCurrent = true
    }
}
