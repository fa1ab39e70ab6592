import RTPWire
import StreamCore

/// Transport-wide congestion control toward publishers: each packet's arrival is recorded by its
/// transport-wide sequence number, and feedback goes back at the cadence libwebrtc's receiver
/// keeps (``TransportFeedbackRecorder``).
extension MediaCore {
    /// Starts or stops what `spec` asks of `transport`. Stamping transport-wide numbers toward a
    /// subscriber rewrites its header extensions; sinks bound before that keep the path chosen
    /// at their binding (the control plane sets it before any sink: at a WebRTC transport's
    /// answer, at an SRTP transport's creation).
    func setCongestionControl(_ spec: CongestionControlSpec, on transport: TransportState) {
        setSentSequenceExtension(spec.sentSequenceExtensionId, on: transport)
        transport.receivedSequenceExtensionId = spec.receivedSequenceExtensionId
        if spec.receivedSequenceExtensionId != 0 {
            if transport.feedbackRecorder == nil {
                transport.feedbackRecorder = TransportFeedbackRecorder()
                feedbackTransports.append(transport)
            }
        } else if transport.feedbackRecorder != nil {
            transport.feedbackRecorder = nil
            feedbackTransports.removeAll { $0 === transport }
        }
    }

    /// Notes when a publisher's authenticated packet arrived, by the transport-wide sequence
    /// number it carries; `wireLength` is its size as it came (for the feedback cadence).
    @inline(__always)
    func recordTransportWideArrival(_ packet: UnsafeRawBufferPointer, header: RTPHeader, wireLength: Int, on transport: TransportState) {
        guard let number = RTPHeaderExtensions.transportWideSequenceNumber(in: packet, header: header, id: transport.receivedSequenceExtensionId),
            let recorder = transport.feedbackRecorder
        else { return }
        recorder.record(sequenceNumber: number, arrivalUs: nowUs, ssrc: header.ssrc, bytes: wireLength)
    }

    /// Sends the feedback that is due on every transport that records arrivals.
    func sendTransportFeedback() {
        for transport in feedbackTransports {
            guard let recorder = transport.feedbackRecorder, let due = recorder.feedbackDueUs(), due <= nowUs else { continue }
            guard transport.canSend else {
                recorder.deferFeedback(nowUs: nowUs)
                continue
            }
            // A burst of packets may need more than one feedback; a few per turn suffice.
            var sent = 0
            for _ in 0..<Self.feedbacksPerTurn where recorder.hasUnreportedPackets {
                let slot = reserveSlot(on: transport)
                // Room is left for the SRTCP trailer.
                let buffer = UnsafeMutableRawBufferPointer(start: slot, count: transport.slotCapacity - Self.rtcpTrailerRoom)
                guard let length = recorder.writeFeedback(senderSSRC: transport.rtcpSSRC, into: buffer, at: 0, nowUs: nowUs) else { break }
                counters.transportFeedbackSent &+= 1
                commitRTCP(on: transport, slot: slot, length: length)
                sent += 1
            }
            // Due and still nothing written: wait an interval rather than find it due again at once.
            if sent == 0, let stillDue = recorder.feedbackDueUs(), stillDue <= nowUs { recorder.deferFeedback(nowUs: nowUs) }
        }
    }

    /// How long the shell may wait for packets before a feedback, a probe packet or a packet
    /// the pacer held falls due: at most `idleWaitMs`, less when one is due sooner.
    func timerWaitMs(idleWaitMs: Int32) -> Int32 {
        var earliest = Int64.max
        // Packets a pacer kept back go as its budget grows: look again within the millisecond.
        if !pacedTransports.isEmpty { earliest = nowUs + 1000 }
        // A probe under way sends its next packets within the millisecond.
        for transport in probingTransports {
            if let next = transport.probe?.nextUs, next < earliest { earliest = next }
        }
        for transport in feedbackTransports {
            if let due = transport.feedbackRecorder?.feedbackDueUs(), due < earliest { earliest = due }
        }
        guard earliest != .max else { return idleWaitMs }
        // Due already (the first feedback is due from the first packet on: `Int64.min`).
        guard earliest > nowUs else { return 0 }
        let waitMs = (earliest - nowUs + 999) / 1000
        return Int32(clamping: max(0, min(Int64(idleWaitMs), waitMs)))
    }

    /// Feedback packets written per transport and timer turn, at most.
    static let feedbacksPerTurn = 4
    /// Bytes a send slot keeps free after an RTCP packet for SRTCP's index and tag.
    static let rtcpTrailerRoom = 64
}
