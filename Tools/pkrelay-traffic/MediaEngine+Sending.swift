import CSocketShims
import Foundation
import RTPWire
import SecureTransport
import StreamCore
import TrafficCore

extension MediaEngine {
    /// Sends every packet that is due and returns when the next one is.
    func sendDue(now: Int64) -> Int64 {
        var nextDue = now + 5_000
        for socket in publishers {
            guard var state = socket.publisher else { continue }
            // An engine that fell more than a second behind skips ahead instead of bursting.
            if now - state.nextAudio > 1_000_000 {
                state.nextAudio = now
                recorder.recordError("sender-behind")
            }
            if now - state.nextVideo > 1_000_000 {
                state.nextVideo = now
                recorder.recordError("sender-behind")
            }
            while state.nextAudio <= now {
                sendAudio(on: socket, state: &state, scheduled: state.nextAudio)
                state.nextAudio += state.audioInterval
            }
            while state.nextVideo <= now {
                let frame = encodeFrame(state: &state, scheduled: state.nextVideo)
                if state.spec.pacingBps > 0 {
                    state.pendingFrames.append(frame)
                } else {
                    var whole = frame
                    sendPackets(of: &whole, count: whole.packets, on: socket, state: &state, scheduled: whole.scheduled)
                }
                state.nextVideo += state.videoInterval
            }
            if !state.pendingFrames.isEmpty { sendPaced(on: socket, state: &state, now: now) }
            socket.publisher = state
            nextDue = min(nextDue, state.nextAudio, state.nextVideo)
            if !state.pendingFrames.isEmpty { nextDue = min(nextDue, state.pacedNextUs) }
        }
        return nextDue
    }

    /// Writes the 20-byte trailer: magic, publisher id, send time, and the lateness against
    /// `scheduled` (which it also records), so receivers can measure latency both ways.
    private func stamp(_ payloadEnd: UnsafeMutableRawPointer, publisherId: UInt32, scheduled: Int64) {
        let start = payloadEnd - Self.stampLength
        let now = MonotonicClock.microseconds()
        let late = UInt32(clamping: max(0, now - scheduled))
        start.storeBytes(of: Self.stampMagic.bigEndian, toByteOffset: 0, as: UInt32.self)
        start.storeBytes(of: publisherId.bigEndian, toByteOffset: 4, as: UInt32.self)
        start.storeBytes(of: UInt64(bitPattern: now).bigEndian, toByteOffset: 8, as: UInt64.self)
        start.storeBytes(of: late.bigEndian, toByteOffset: 16, as: UInt32.self)
        lateness.record(microseconds: Int64(late))
        intervalLateness.record(microseconds: Int64(late))
    }

    private func sendAudio(on socket: SimSocket, state: inout PublisherState, scheduled: Int64) {
        let spec = state.spec
        let buffer = pkr_batch_buffer(sendBatch, 0)!
        let capacity = Int(pkr_batch_buffer_size(sendBatch))
        let raw = UnsafeMutableRawBufferPointer(start: buffer, count: capacity)
        _ = RTPHeaderWriter.write(
            marker: false, payloadType: Self.audioPayloadType, sequenceNumber: state.audioSequence,
            timestamp: state.audioTimestamp, ssrc: spec.audioSSRC, into: raw)
        let headerLength = writeTransportWideNumber(into: buffer, on: socket)
        let payloadLength = max(Self.stampLength + 1, spec.audio.payloadBytes)
        buffer[headerLength] = 0xFC
        memset(buffer + headerLength + 1, 0x5A, payloadLength - 1)
        stamp(UnsafeMutableRawPointer(buffer + headerLength + payloadLength), publisherId: spec.publisherId, scheduled: scheduled)
        state.audioSequence &+= 1
        state.audioTimestamp &+= UInt32(48_000 / max(1, spec.audio.packetsPerSecond))
        var length = headerLength + payloadLength
        guard socket.sender.protectRTP(buffer, length: &length, capacity: capacity) == .ok else {
            recorder.recordError("srtp-protect")
            return
        }
        pkr_batch_prepare(sendBatch, 0, UInt32(length), socket.spec.relayIP, socket.spec.relayPort)
        flush(socket, count: 1)
    }

    /// Encodes the next video frame: whether it is a keyframe, its size and packets, and the
    /// encoder's bookkeeping (timestamp, keyframe phase) as if it had been sent.
    private func encodeFrame(state: inout PublisherState, scheduled: Int64) -> PendingFrame {
        let spec = state.spec
        let keyframe = state.keyframeRequested || state.framesSinceKeyframe >= spec.video.keyframeIntervalFrames
        let sizes = spec.video.frameSizes
        let frameSize = keyframe ? sizes.key : sizes.delta
        let chunkLimit = spec.video.maxPayloadBytes - 1
        let frame = PendingFrame(
            keyframe: keyframe, frameSize: frameSize, packets: (frameSize + chunkLimit - 1) / chunkLimit, timestamp: state.videoTimestamp,
            fill: UInt8(truncatingIfNeeded: state.frameIndex), scheduled: scheduled)
        state.videoTimestamp &+= UInt32(90_000 / max(1, spec.video.fps))
        state.frameIndex &+= 1
        if keyframe {
            // After its first keyframe each publisher keeps a phase of its own, as independent
            // encoders do: publishers set up together would otherwise send every later keyframe
            // in the same instant, a burst no real audience produces.
            state.framesSinceKeyframe = state.frameIndex == 1 ? Int.random(in: 1...max(1, spec.video.keyframeIntervalFrames)) : 1
            state.keyframeRequested = false
            totals.keyframesSent += 1
        } else {
            state.framesSinceKeyframe += 1
        }
        return frame
    }

    /// Sends the packets of paced frames whose time has come: each packet may go once the one
    /// before has taken its share of the pacing rate, with at most 5 ms of the rate saved up
    /// while idle, as libwebrtc's pacer spreads a browser's frames.
    private func sendPaced(on socket: SimSocket, state: inout PublisherState, now: Int64) {
        let bytesPerUs = Double(state.spec.pacingBps) / 8_000_000
        state.pacedNextUs = max(state.pacedNextUs, now - 5_000)
        let packetUs = Int64(Double(state.spec.video.maxPayloadBytes + 40) / bytesPerUs)
        while var frame = state.pendingFrames.first, state.pacedNextUs <= now {
            // The slice's schedule is its first packet's slot: the pacer's wait is not the tool's lateness.
            let slot = max(state.pacedNextUs, frame.scheduled)
            var due = 0
            while frame.next + due < frame.packets, state.pacedNextUs <= now {
                due += 1
                state.pacedNextUs += packetUs
            }
            sendPackets(of: &frame, count: due, on: socket, state: &state, scheduled: slot)
            if frame.next == frame.packets {
                state.pendingFrames.removeFirst()
            } else {
                state.pendingFrames[0] = frame
            }
        }
    }

    /// Sends the next `count` packets of `frame`, packetised like an encoder: MTU-sized packets,
    /// one timestamp, the marker on the last packet, a VP8 descriptor on each and the frame tag
    /// on the first.
    private func sendPackets(of frame: inout PendingFrame, count: Int, on socket: SimSocket, state: inout PublisherState, scheduled: Int64) {
        let spec = state.spec
        let keyframe = frame.keyframe
        let frameSize = frame.frameSize
        let packets = frame.packets
        let baseChunk = frameSize / packets
        let remainder = frameSize % packets
        let capacity = Int(pkr_batch_buffer_size(sendBatch))
        let batchSize = Int(pkr_batch_count(sendBatch))
        var queued = 0
        let end = min(packets, frame.next + count)
        for index in frame.next..<end {
            let chunk = baseChunk + (index < remainder ? 1 : 0)
            let buffer = pkr_batch_buffer(sendBatch, UInt32(queued))!
            let raw = UnsafeMutableRawBufferPointer(start: buffer, count: capacity)
            _ = RTPHeaderWriter.write(
                marker: index == packets - 1, payloadType: Self.videoPayloadType, sequenceNumber: state.videoSequence,
                timestamp: frame.timestamp, ssrc: spec.videoSSRC, into: raw)
            let headerLength = writeTransportWideNumber(into: buffer, on: socket)
            let payload = buffer + headerLength
            payload[0] = index == 0 ? 0x10 : 0x00
            memset(payload + 1, Int32(frame.fill), chunk)
            if index == 0 {
                let partition = UInt32(max(0, frameSize - (keyframe ? 10 : 3)))
                let tag = (keyframe ? 0 : 1) | (1 << 4) | (partition << 5)
                payload[1] = UInt8(tag & 0xFF)
                payload[2] = UInt8(tag >> 8 & 0xFF)
                payload[3] = UInt8(tag >> 16 & 0xFF)
                if keyframe {
                    let width = UInt16(spec.video.width)
                    let height = UInt16(spec.video.height)
                    let header: [UInt8] = [0x9D, 0x01, 0x2A, UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)]
                    for (offset, byte) in header.enumerated() { payload[4 + offset] = byte }
                }
            }
            stamp(UnsafeMutableRawPointer(payload + 1 + chunk), publisherId: spec.publisherId, scheduled: scheduled)
            state.videoSequence &+= 1
            var length = headerLength + 1 + chunk
            guard socket.sender.protectRTP(buffer, length: &length, capacity: capacity) == .ok else {
                recorder.recordError("srtp-protect")
                continue
            }
            pkr_batch_prepare(sendBatch, UInt32(queued), UInt32(length), socket.spec.relayIP, socket.spec.relayPort)
            queued += 1
            if queued == batchSize {
                flush(socket, count: queued)
                queued = 0
            }
        }
        if queued > 0 { flush(socket, count: queued) }
        frame.next = end
    }

    /// With transport-wide numbers (`--transport-cc`): sets the header's extension bit and writes
    /// the next number in a one-word RFC 8285 block after the 12-byte header, as a browser's
    /// packets carry it. Returns where the payload starts.
    private func writeTransportWideNumber(into buffer: UnsafeMutablePointer<UInt8>, on socket: SimSocket) -> Int {
        let id = socket.spec.transportWideExtensionId
        guard id != 0 else { return 12 }
        let number = socket.nextTransportWideSequence
        socket.nextTransportWideSequence &+= 1
        buffer[0] |= 0x10
        let block: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0xBE, 0xDE, 0, 1, id << 4 | 1, UInt8(number >> 8), UInt8(number & 0xFF), 0)
        withUnsafeBytes(of: block) { (buffer + 12).update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: 8) }
        return 20
    }

    /// Sends the first `count` prepared messages of the send batch and counts them.
    private func flush(_ socket: SimSocket, count: Int) {
        var tally = pkr_send_tally()
        let sent =
            segmented
            ? pkr_batch_send_segmented(socket.spec.fd, sendBatch, UInt32(count), &tally)
            : pkr_batch_send(socket.spec.fd, sendBatch, UInt32(count))
        let delivered = max(0, Int(sent))
        for index in 0..<delivered {
            totals.bytesSent += UInt64(pkr_batch_prepared_length(sendBatch, UInt32(index)))
        }
        totals.sent += UInt64(delivered)
        if delivered < count {
            for _ in delivered..<count { recorder.recordError("send-dropped") }
        }
    }

    // MARK: RTCP feedback

    /// Sends generic NACKs for `sequenceNumbers` (each entry covers a packet id and the 16 after it).
    func sendNACK(on socket: SimSocket, mediaSSRC: UInt32, sequenceNumbers: [UInt16]) {
        var remaining = sequenceNumbers
        var entries: [(UInt16, UInt16)] = []
        while let first = remaining.first {
            var mask: UInt16 = 0
            var rest: [UInt16] = []
            for number in remaining.dropFirst() {
                let distance = number &- first
                if distance >= 1 && distance <= 16 { mask |= 1 << (distance - 1) } else if number != first { rest.append(number) }
            }
            entries.append((first, mask))
            remaining = rest
        }
        let written: Int? = rtcpBuffer.withUnsafeMutableBytes { buffer in
            var offset = 0
            for (packetID, mask) in entries.prefix(64) {
                guard
                    let length = RTCPWriter.writeGenericNACK(
                        senderSSRC: socket.spec.feedbackSSRC, mediaSSRC: mediaSSRC, packetID: packetID,
                        lostBitmask: mask, into: buffer, at: offset)
                else { break }
                offset += length
            }
            return offset
        }
        if let written, written > 0, sendRTCP(on: socket, length: written) { totals.nacksSent += 1 }
    }

    /// Sends a picture loss indication for `mediaSSRC`.
    func sendPLI(on socket: SimSocket, mediaSSRC: UInt32) {
        let written = rtcpBuffer.withUnsafeMutableBytes { buffer in
            RTCPWriter.writePictureLossIndication(senderSSRC: socket.spec.feedbackSSRC, mediaSSRC: mediaSSRC, into: buffer, at: 0)
        }
        if let written, sendRTCP(on: socket, length: written) { totals.plisSent += 1 }
    }

    /// Sends the transport-wide feedback that is due on each socket that records arrivals, as a
    /// browser's receiver does: one packet per due socket, more when a burst needs them.
    func sendDueTransportFeedback(now: Int64) {
        for socket in feedbackSockets {
            guard let recorder = socket.feedbackRecorder, let due = recorder.feedbackDueUs(), due <= now else { continue }
            var sent = 0
            while sent < 4, recorder.hasUnreportedPackets {
                // Room is left for the SRTCP trailer.
                let written = rtcpBuffer.withUnsafeMutableBytes { buffer in
                    recorder.writeFeedback(
                        senderSSRC: socket.spec.feedbackSSRC, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(buffer.count - 64)]), at: 0, nowUs: now)
                }
                guard let written else { break }
                if sendRTCP(on: socket, length: written) { totals.transportFeedbackSent += 1 }
                sent += 1
            }
            if sent == 0, let stillDue = recorder.feedbackDueUs(), stillDue <= now { recorder.deferFeedback(nowUs: now) }
        }
    }

    /// Sends a receiver report without report blocks, which proves the socket's address to the relay.
    func sendEmptyReceiverReport(on socket: SimSocket) {
        let written = rtcpBuffer.withUnsafeMutableBytes { buffer in
            RTCPWriter.writeReceiverReport(ssrc: socket.spec.feedbackSSRC, block: nil, into: buffer, at: 0)
        }
        if let written { _ = sendRTCP(on: socket, length: written) }
    }

    /// Protects the first `length` bytes of the RTCP buffer and sends them.
    private func sendRTCP(on socket: SimSocket, length: Int) -> Bool {
        rtcpBuffer.withUnsafeMutableBytes { buffer in
            var protectedLength = length
            guard socket.sender.protectRTCP(buffer.baseAddress!, length: &protectedLength, capacity: buffer.count) == .ok else {
                recorder.recordError("srtp-protect")
                return false
            }
            let result = pkr_udp_send(socket.spec.fd, buffer.baseAddress, UInt32(protectedLength), socket.spec.relayIP, socket.spec.relayPort)
            if result < 0 {
                recorder.recordError("send-failed")
                return false
            }
            return true
        }
    }
}
