import CSocketShims
import RTPWire
import SecureTransport
import StreamCore
import TrafficCore

extension MediaEngine {
    /// Reads every waiting datagram of `socket`.
    func receive(on socket: SimSocket) {
        while true {
            let count = pkr_batch_receive(socket.spec.fd, receiveBatch)
            guard count > 0 else { return }
            let now = MonotonicClock.microseconds()
            for index in 0..<UInt32(count) {
                let length = Int(pkr_batch_length(receiveBatch, index))
                guard length > 0, let buffer = pkr_batch_buffer(receiveBatch, index) else { continue }
                // With receive offload a message may hold a run of the relay's datagrams.
                let segment = Int(pkr_batch_segment_size(receiveBatch, index))
                guard segment > 0, segment < length else {
                    handle(UnsafeMutableRawPointer(buffer), length: length, on: socket, now: now)
                    continue
                }
                var offset = 0
                while offset < length {
                    let datagramLength = min(segment, length - offset)
                    handle(UnsafeMutableRawPointer(buffer) + offset, length: datagramLength, on: socket, now: now)
                    offset += datagramLength
                }
            }
        }
    }

    private func handle(_ packet: UnsafeMutableRawPointer, length wireLength: Int, on socket: SimSocket, now: Int64) {
        let kind = PacketDemultiplexer.classify(UnsafeRawBufferPointer(start: packet, count: wireLength))
        var length = wireLength
        switch kind {
        case .rtp:
            let status = socket.receiver.unprotectRTP(packet, length: &length)
            switch status {
            case .ok:
                handleRTP(UnsafeRawBufferPointer(start: packet, count: length), wireLength: wireLength, on: socket, now: now)
            case .replayed:
                // The same protected packet twice (a retransmission of one that had arrived).
                totals.duplicates += 1
            default:
                totals.undecryptable += 1
                recorder.recordError("srtp-unprotect")
            }
        case .rtcp:
            guard socket.receiver.unprotectRTCP(packet, length: &length) == .ok else {
                totals.undecryptable += 1
                recorder.recordError("srtcp-unprotect")
                return
            }
            handleRTCP(UnsafeRawBufferPointer(start: packet, count: length), on: socket)
        case .stun, .dtls:
            // A WebRTC client's consent-check answers, and the relay's repeat of its last
            // handshake flight: the control side's business, not media.
            return
        default:
            totals.undecryptable += 1
        }
    }

    private func handleRTP(_ packet: UnsafeRawBufferPointer, wireLength: Int, on socket: SimSocket, now: Int64) {
        guard let header = RTPHeader.parse(packet) else {
            totals.undecryptable += 1
            recorder.recordError("rtp-malformed")
            return
        }
        totals.received += 1
        totals.bytesReceived += UInt64(wireLength)
        if let recorder = socket.feedbackRecorder,
            let number = RTPHeaderExtensions.transportWideSequenceNumber(in: packet, header: header, id: socket.spec.transportWideExtensionId)
        {
            recorder.record(sequenceNumber: number, arrivalUs: now, ssrc: header.ssrc, bytes: wireLength)
        }
        // A retransmission stream's packets (the relay's probes, mostly) copy earlier media,
        // stamp and all: counted as received, never as a stream or a latency.
        if header.payloadType == Self.rtxPayloadType {
            totals.retransmissionsReceived += 1
            return
        }
        let index: Dictionary<UInt32, ReceiveStream>.Index
        if let existing = socket.streams.index(forKey: header.ssrc) {
            index = existing
        } else {
            socket.streams[header.ssrc] = ReceiveStream(isVideo: header.payloadType == Self.videoPayloadType)
            index = socket.streams.index(forKey: header.ssrc)!
        }
        // The stream is changed where it lives: a copy would copy its loss window (an allocation
        // per packet) when written.
        record(header, packet: packet, in: &socket.streams.values[index], roomIndex: socket.spec.roomIndex, now: now)
        if socket.awaitsFirstKeyframe, socket.streams.values[index].gotKeyframe {
            socket.awaitsFirstKeyframe = false
            setup.record(microseconds: now - socket.spec.joinedAtMicroseconds)
        }
    }

    private func record(_ header: RTPHeader, packet: UnsafeRawBufferPointer, in stream: inout ReceiveStream, roomIndex: Int, now: Int64) {
        let arrival = stream.counter.record(header.sequenceNumber)
        if stream.isVideo, case .advanced(let missing?) = arrival {
            // Ask for at most the 64 most recent missing packets; older ones are better served by a keyframe.
            let first = max(missing.lowerBound, missing.upperBound - 63)
            for number in first...missing.upperBound { stream.pending.append(PendingNack(extended: number, detected: now)) }
            if missing.count > 64 { stream.gotKeyframe = false }
        }
        let payloadStart = header.payloadOffset
        let payloadLength = header.payloadLength
        var publisherId: UInt32?
        if payloadLength >= Self.stampLength {
            let stampStart = payloadStart + payloadLength - Self.stampLength
            if packet.loadUnaligned(fromByteOffset: stampStart, as: UInt32.self).bigEndian == Self.stampMagic {
                publisherId = packet.loadUnaligned(fromByteOffset: stampStart + 4, as: UInt32.self).bigEndian
                let sent = Int64(bitPattern: packet.loadUnaligned(fromByteOffset: stampStart + 8, as: UInt64.self).bigEndian)
                let late = Int64(packet.loadUnaligned(fromByteOffset: stampStart + 16, as: UInt32.self).bigEndian)
                latency.record(microseconds: now - sent)
                latencyFromSchedule.record(microseconds: now - sent + late)
                intervalLatency.record(microseconds: now - sent)
            } else {
                totals.unstamped += 1
            }
        } else {
            totals.unstamped += 1
        }
        if stream.isVideo, payloadLength >= 2 {
            let descriptor = packet[payloadStart]
            if descriptor & 0x10 != 0, descriptor & 0x07 == 0, descriptor & 0x80 == 0, packet[payloadStart + 1] & 0x01 == 0 {
                stream.gotKeyframe = true
                if let publisherId, !watches.isEmpty { keyframeArrived(publisherId: publisherId, roomIndex: roomIndex, now: now) }
            }
        }
    }

    private func keyframeArrived(publisherId: UInt32, roomIndex: Int, now: Int64) {
        watches.removeAll { watch in
            guard watch.publisherId == publisherId, watch.roomIndex == roomIndex, now >= watch.sinceMicroseconds else { return false }
            setup.record(microseconds: now - watch.sinceMicroseconds)
            return true
        }
    }

    private func handleRTCP(_ packet: UnsafeRawBufferPointer, on socket: SimSocket) {
        var iterator = RTCPPacketIterator(packet)
        while let view = iterator.next() {
            guard let feedback = RTCPFeedback(view: view, in: packet) else { continue }
            if feedback.isPictureLossIndication || feedback.isFullIntraRequest {
                totals.keyframeRequestsReceived += 1
                socket.publisher?.keyframeRequested = true
            } else if feedback.isGenericNACK {
                totals.nacksReceived += 1
            } else if feedback.packetType == RTCPPacketType.transportFeedback && feedback.format == Self.transportWideFeedbackFormat {
                totals.transportFeedbackReceived += 1
            }
        }
    }
}
