extension DataPlaneCounters {
    /// Adds another shard's counters.
    mutating func merge(_ other: DataPlaneCounters) {
        packetsIn &+= other.packetsIn
        bytesIn &+= other.bytesIn
        packetsOut &+= other.packetsOut
        bytesOut &+= other.bytesOut
        rtcpIn &+= other.rtcpIn
        rtcpOut &+= other.rtcpOut
        keyframeRequestsReceived &+= other.keyframeRequestsReceived
        keyframeRequestsSent &+= other.keyframeRequestsSent
        keyframeReplays &+= other.keyframeReplays
        nacksReceived &+= other.nacksReceived
        retransmissionsSent &+= other.retransmissionsSent
        retransmissionsMissed &+= other.retransmissionsMissed
        nacksSent &+= other.nacksSent
        retransmissionsReceived &+= other.retransmissionsReceived
        receiveBatches &+= other.receiveBatches
        sendBatches &+= other.sendBatches
        sendCalls &+= other.sendCalls
        sendMessages &+= other.sendMessages
        segmentationFallbacks &+= other.segmentationFallbacks
        paddedPackets &+= other.paddedPackets
        paddingBytes &+= other.paddingBytes
        receiveMessages &+= other.receiveMessages
        transportFeedbackSent &+= other.transportFeedbackSent
        transportFeedbackReceived &+= other.transportFeedbackReceived
        probeClusters &+= other.probeClusters
        probePackets &+= other.probePackets
        pacedPackets &+= other.pacedPackets
        streamConnectionsAccepted &+= other.streamConnectionsAccepted
        streamConnectionsRefused &+= other.streamConnectionsRefused
        streamConnectionsClosed &+= other.streamConnectionsClosed
        ipv6PeersReclaimed &+= other.ipv6PeersReclaimed
        for index in drops.indices where index < other.drops.count { drops[index] &+= other.drops[index] }
    }
}
