import CSocketShims
import Foundation
import RTPWire
import SecureTransport
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
                sendFrame(on: socket, state: &state, scheduled: state.nextVideo)
                state.nextVideo += state.videoInterval
            }
            socket.publisher = state
            nextDue = min(nextDue, state.nextAudio, state.nextVideo)
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
        let payloadLength = max(Self.stampLength + 1, spec.audio.payloadBytes)
        buffer[12] = 0xFC
        memset(buffer + 13, 0x5A, payloadLength - 1)
        stamp(UnsafeMutableRawPointer(buffer + 12 + payloadLength), publisherId: spec.publisherId, scheduled: scheduled)
        state.audioSequence &+= 1
        state.audioTimestamp &+= UInt32(48_000 / max(1, spec.audio.packetsPerSecond))
        var length = 12 + payloadLength
        guard socket.sender.protectRTP(buffer, length: &length, capacity: capacity) == .ok else {
            recorder.recordError("srtp-protect")
            return
        }
        pkr_batch_prepare(sendBatch, 0, UInt32(length), socket.spec.relayIP, socket.spec.relayPort)
        flush(socket, count: 1)
    }

    /// Sends one video frame, packetised like an encoder: MTU-sized packets, one timestamp,
    /// the marker on the last packet, a VP8 descriptor on each and the frame tag on the first.
    private func sendFrame(on socket: SimSocket, state: inout PublisherState, scheduled: Int64) {
        let spec = state.spec
        let keyframe = state.keyframeRequested || state.framesSinceKeyframe >= spec.video.keyframeIntervalFrames
        let sizes = spec.video.frameSizes
        let frameSize = keyframe ? sizes.key : sizes.delta
        let chunkLimit = spec.video.maxPayloadBytes - 1
        let packets = (frameSize + chunkLimit - 1) / chunkLimit
        let baseChunk = frameSize / packets
        let remainder = frameSize % packets
        let capacity = Int(pkr_batch_buffer_size(sendBatch))
        let batchSize = Int(pkr_batch_count(sendBatch))
        var queued = 0
        for index in 0..<packets {
            let chunk = baseChunk + (index < remainder ? 1 : 0)
            let buffer = pkr_batch_buffer(sendBatch, UInt32(queued))!
            let raw = UnsafeMutableRawBufferPointer(start: buffer, count: capacity)
            _ = RTPHeaderWriter.write(
                marker: index == packets - 1, payloadType: Self.videoPayloadType, sequenceNumber: state.videoSequence,
                timestamp: state.videoTimestamp, ssrc: spec.videoSSRC, into: raw)
            buffer[12] = index == 0 ? 0x10 : 0x00
            memset(buffer + 13, Int32(state.frameIndex & 0xFF), chunk)
            if index == 0 {
                let partition = UInt32(max(0, frameSize - (keyframe ? 10 : 3)))
                let tag = (keyframe ? 0 : 1) | (1 << 4) | (partition << 5)
                buffer[13] = UInt8(tag & 0xFF)
                buffer[14] = UInt8(tag >> 8 & 0xFF)
                buffer[15] = UInt8(tag >> 16 & 0xFF)
                if keyframe {
                    let width = UInt16(spec.video.width)
                    let height = UInt16(spec.video.height)
                    let header: [UInt8] = [0x9D, 0x01, 0x2A, UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)]
                    for (offset, byte) in header.enumerated() { buffer[16 + offset] = byte }
                }
            }
            stamp(UnsafeMutableRawPointer(buffer + 13 + chunk), publisherId: spec.publisherId, scheduled: scheduled)
            state.videoSequence &+= 1
            var length = 13 + chunk
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
