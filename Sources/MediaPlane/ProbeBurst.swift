import StreamCore

/// A probe cluster under way on a subscriber transport: packets on one of its sinks' RFC 4588
/// streams, spread over the cluster's duration at its target rate (the relay's pacing of a
/// probe; media sent meanwhile counts toward the cluster too).
struct ProbeBurst {
    var cluster: ProbeCluster
    /// The output SSRC of the sink whose RTX stream carries the probe (looked up each turn: the
    /// sink may go while the burst lasts).
    var sinkSSRC: UInt32
    /// Bytes still to send, and packets sent so far (a cluster has a minimum of each).
    var bytesLeft: Int
    var packetsSent = 0
    /// When the next packet is due.
    var nextUs: Int64

    /// Whether the cluster has all it asked for.
    var isComplete: Bool { bytesLeft <= 0 && packetsSent >= cluster.minimumPackets }
}
