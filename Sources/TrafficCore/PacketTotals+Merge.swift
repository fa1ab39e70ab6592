extension PacketTotals {
    /// Adds every count of `other` (reports of generators that ran together).
    public mutating func add(_ other: PacketTotals) {
        sent &+= other.sent
        bytesSent &+= other.bytesSent
        received &+= other.received
        bytesReceived &+= other.bytesReceived
        expected &+= other.expected
        lost &+= other.lost
        duplicates &+= other.duplicates
        late &+= other.late
        nacksSent &+= other.nacksSent
        plisSent &+= other.plisSent
        transportFeedbackSent &+= other.transportFeedbackSent
        transportFeedbackReceived &+= other.transportFeedbackReceived
        retransmissionsReceived &+= other.retransmissionsReceived
        keyframeRequestsReceived &+= other.keyframeRequestsReceived
        nacksReceived &+= other.nacksReceived
        keyframesSent &+= other.keyframesSent
        undecryptable &+= other.undecryptable
        unstamped &+= other.unstamped
    }
}
