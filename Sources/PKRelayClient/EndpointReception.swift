/// What a ``MediaEndpoint`` has received so far; guarded by the endpoint's lock.
struct EndpointReception {
    var rtp: [ReceivedRTPPacket] = []
    var rtcp: [ReceivedRTCPMessage] = []
    var counters = MediaEndpointCounters()
    /// The protected bytes of recently accepted RTP packets, by SSRC and sequence number, to
    /// recognise retransmissions that libsrtp refuses as replays.
    var protectedCopies: [UInt64: (bytes: [UInt8], index: Int)] = [:]
    var copyOrder: [UInt64] = []

    static let copiesKept = 8192

    static func key(ssrc: UInt32, sequenceNumber: UInt16) -> UInt64 {
        UInt64(ssrc) << 16 | UInt64(sequenceNumber)
    }

    mutating func remember(_ bytes: [UInt8], key: UInt64, index: Int) {
        if protectedCopies.updateValue((bytes, index), forKey: key) == nil {
            copyOrder.append(key)
            if copyOrder.count > Self.copiesKept {
                protectedCopies.removeValue(forKey: copyOrder.removeFirst())
            }
        }
    }
}
