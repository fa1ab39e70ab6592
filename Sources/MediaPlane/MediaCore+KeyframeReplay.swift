import RTPWire
import StreamCore

extension MediaCore {
    /// How old the source's last keyframe may be for a newly bound sink to start from it: the
    /// publisher's hold, within which a new request would be ignored anyway.
    static let keyframeReplayMaximumAgeMs = KeyframeRequestThrottle.publisherHoldMs
    /// The most packets a replay sends (the keyframe and the frames after it).
    static let keyframeReplayMaximumPackets = 256

    /// Starts a newly bound sink that allows it (a WebRTC subscriber's: SRTP subscribers are bound
    /// when they subscribe, all at once when a link or forward starts, and share the keyframe the
    /// first one's request brings) from its source's last keyframe when that arrived less than
    /// ``keyframeReplayMaximumAgeMs`` ago and every packet since is still in the retransmission
    /// buffer: the keyframe and the packets after it go to this sink alone, in order, as they
    /// went to the others, and live packets follow. A PK's viewers are bound one by one as their
    /// answers land; the first one's keyframe then serves the next ones at once, where a new
    /// request would wait out the publisher's hold. Nothing is replayed across a gap: the sink
    /// would start with a loss.
    ///
    /// - Returns: Whether the sink started (it no longer waits for a keyframe).
    func replayRecentKeyframe(to sink: SinkState, from source: SourceState) -> Bool {
        guard sink.startsFromRecentKeyframe, let buffer = source.retransmissions, source.lastKeyframeMs != Int64.min,
            nowMs - source.lastKeyframeMs <= Self.keyframeReplayMaximumAgeMs,
            sink.transport.canSend
        else { return false }
        let first = source.lastKeyframeSequence
        let count = Int(UInt16(truncatingIfNeeded: source.statistics.extendedHighestSequenceNumber) &- first) + 1
        guard count <= Self.keyframeReplayMaximumPackets, count <= buffer.capacity else { return false }
        for offset in 0..<count where buffer.serial(of: first &+ UInt16(offset)) == 0 { return false }
        if forwardRunCount > 0 { forwardRun() }
        sink.transportReference._withUnsafeGuaranteedRef { transport in
            for offset in 0..<count {
                let sequenceNumber = first &+ UInt16(offset)
                let serial = buffer.serial(of: sequenceNumber)
                buffer.withPacket(sequenceNumber: sequenceNumber, nowMs: nowMs, maximumAgeMs: Int64.max) { stored in
                    guard let header = RTPHeader.parse(stored) else { return }
                    let vp8Fields = source.codec == .vp8 ? Self.vp8Fields(in: stored, header: header) : nil
                    forward(
                        stored, header: header, keyframe: offset == 0, audioLevel: nil, vp8Fields: vp8Fields, serial: serial, to: sink, on: transport,
                        fromReceiveBatch: false)
                }
            }
        }
        if sink.waitingForKeyframe { return false }
        counters.keyframeReplays &+= 1
        return true
    }
}
