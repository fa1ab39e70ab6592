import RTPWire
import StreamCore

/// Forward runs: consecutive packets of one source in a receive batch are copied to its sinks
/// subscriber by subscriber, not packet by packet. A subscriber's datagrams for the whole run
/// are then prepared one after another and, for a long run, sent at once, while its message
/// headers, vectors and send slots are still in the cache; packet by packet, every subscriber's
/// queue is written before any is sent, and at a fan-out of 64 those queues outgrow the core's
/// cache before the kernel reads them back. Each subscriber still gets its packets in order;
/// only the interleaving between subscribers changes.
extension MediaCore {
    /// The most packets a run holds before it is forwarded.
    static let forwardRunCapacity = 64
    /// Runs go subscriber by subscriber only for sources with at least this many sinks: with one,
    /// the order is the same either way.
    static let forwardRunMinimumSinks = 2
    /// After a run of at least this many packets, each subscriber's queue is sent as soon as its
    /// part is prepared. Shorter runs (a frame of a few packets between audio packets) leave it
    /// to the end of the batch, so that a transport's datagrams still go in one call.
    static let forwardRunEarlySendLength = 8

    /// Hands a packet's copies to the run of its source, when the packet lies in the receive
    /// batch and the source has enough sinks; forwards it at once otherwise.
    @inline(__always)
    func forwardToSinks(
        _ packet: UnsafeRawBufferPointer, header: RTPHeader, keyframe: Bool, audioLevel: (level: UInt8, voiceActivity: Bool)?,
        vp8Fields: VP8DescriptorFields?, from source: SourceState
    ) {
        let serial = source.retransmissions?.serial(of: header.sequenceNumber) ?? 0
        guard handlesReceiveBatch, source.sinks.count >= Self.forwardRunMinimumSinks else {
            if forwardRunCount > 0 { forwardRun() }
            forEachSink(of: source) {
                forward(packet, header: header, keyframe: keyframe, audioLevel: audioLevel, vp8Fields: vp8Fields, serial: serial, to: $0)
            }
            return
        }
        if forwardRunCount > 0, forwardRunSource !== source || forwardRunCount == Self.forwardRunCapacity { forwardRun() }
        if forwardRunCount == 0 { forwardRunSource = source }
        (forwardRunEntries + forwardRunCount).initialize(
            to: ForwardRunEntry(packet: packet, header: header, keyframe: keyframe, audioLevel: audioLevel, vp8Fields: vp8Fields, serial: serial))
        forwardRunCount += 1
    }

    /// Copies the pending run to each sink of its source in turn. Called before anything that
    /// could change what a sink is bound to or whether it can send, and at the end of every
    /// receive batch, whose buffers the run's packets lie in.
    func forwardRun() {
        let count = forwardRunCount
        guard count > 0, let source = forwardRunSource else { return }
        forwardRunCount = 0
        forwardRunSource = nil
        let entries = forwardRunEntries
        let sendsEarly = count >= Self.forwardRunEarlySendLength
        forEachSink(of: source) { sink in
            sink.transportReference._withUnsafeGuaranteedRef { transport in
                for index in 0..<count {
                    forward(
                        entries[index].packet, header: entries[index].header, keyframe: entries[index].keyframe,
                        audioLevel: entries[index].audioLevel, vp8Fields: entries[index].vp8Fields, serial: entries[index].serial, to: sink,
                        on: transport, fromReceiveBatch: true)
                }
                if sendsEarly, transport.pending > 0 { flush(transport) }
            }
        }
        entries.deinitialize(count: count)
    }

    /// Calls `body` with each sink of `source`, borrowed. The sinks are read through the buffer
    /// of a copy of the array (one retain for all of it) as unmanaged references: a sink loaded
    /// from memory is retained and released around the calls that follow (two atomics per
    /// egress packet), a borrowed one is not.
    @inline(__always)
    func forEachSink(of source: SourceState, _ body: (SinkState) -> Void) {
        let sinks = source.sinks
        sinks.withUnsafeBufferPointer { sinks in
            sinks.withMemoryRebound(to: Unmanaged<SinkState>.self) { sinks in
                for sink in sinks { sink._withUnsafeGuaranteedRef(body) }
            }
        }
    }
}
