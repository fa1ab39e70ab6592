@_spi(Fuzzing) import MediaPlane
import RTPWire

/// Reads the `media` fuzz target's steps (``FuzzTarget/runMedia(_:)``) into actions: keeps each
/// stream's sequence number and timestamp so packets come mostly in order, and gathers the
/// publisher's datagrams into receive batches of up to 32, as the shell reads them.
struct MediaFuzzScript {
    let layout: MediaFuzzLayout
    var pending: [[UInt8]] = []
    var sequenceNumbers: [UInt32: UInt16] = [:]
    var timestamps: [UInt32: UInt32] = [:]
    /// The last sequence number each subscriber was sent per SSRC, for NACKs that name packets
    /// the relay really sent.
    var lastSent: [UInt32: UInt16] = [:]
    var deliveriesSeen = 0

    static let batchSize = 32
    /// Sequence steps from here to ``restartStep`` send one packet far from its stream's numbers,
    /// and from there on move the stream there.
    static let strayStep: Int8 = 120
    static let restartStep: Int8 = 124
    static let payloadSizes = [0, 1, 20, 100, 500, 1000, 1100, 1101, 1150, 1200, 1201, 1300, 1400, 1460, 1480, 1500]
    static let advances = [1, 5, 20, 50, 100, 300, 1000, 5000]

    init(layout: MediaFuzzLayout) {
        self.layout = layout
    }

    /// The actions of the next step.
    mutating func step(_ input: inout FuzzInput) -> [MediaFuzzAction] {
        switch input.byte() % 10 {
        case 0, 1, 2:
            pending.append(rtpPacket(&input))
            return pending.count >= Self.batchSize ? finish() : []
        case 3:
            pending.append(Array(input.take(Int(input.byte()) * 6)))
            return pending.count >= Self.batchSize ? finish() : []
        case 4:
            let ssrc = [MediaCoreFuzzRig.largeVideoSSRC, MediaCoreFuzzRig.smallVideoSSRC, MediaCoreFuzzRig.audioSSRC][Int(input.byte()) % 3]
            var report = [UInt8](repeating: 0, count: RTCPWriter.senderReportLength)
            _ = report.withUnsafeMutableBytes {
                RTCPWriter.writeSenderReport(
                    ssrc: ssrc, ntpTimestamp: input.uint64(), rtpTimestamp: timestamps[ssrc, default: 0], packetCount: 10, octetCount: 1000, into: $0, at: 0)
            }
            pending.append(report)
            return pending.count >= Self.batchSize ? finish() : []
        case 5:
            return finish() + [subscriberFeedback(&input)]
        case 6:
            return finish()
        case 7:
            let kind = input.byte()
            let subscriber = Int(input.byte())
            let argument = Int(input.byte())
            let change: MediaFuzzChange =
                switch kind % 8 {
                case 0: .switchLayer(subscriber: subscriber)
                case 1: .unbind(subscriber: subscriber, video: argument & 1 == 0)
                case 2: .bind(subscriber: subscriber, video: argument & 1 == 0, layer: argument >> 1)
                case 3: .toggleSink(subscriber: subscriber, video: argument & 1 == 0)
                case 4: .toggleSource(index: argument)
                case 5: .requestKeyframe(layer: argument)
                case 6: .restartAtKeyframe(subscriber: subscriber)
                default: .reconnect(subscriber: subscriber)
                }
            return finish() + [.change(change)]
        case 8:
            return finish() + [.advance(milliseconds: Self.advances[Int(input.byte()) % Self.advances.count])]
        default:
            let packet = rtpPacket(&input)
            return finish() + [.receive([packet], transport: MediaCoreFuzzRig.publisherTransport, fromPeer: false)]
        }
    }

    /// The pending batch, read now; nothing when there is none.
    mutating func finish() -> [MediaFuzzAction] {
        guard !pending.isEmpty else { return [] }
        defer { pending.removeAll() }
        return [.receive(pending, transport: MediaCoreFuzzRig.publisherTransport, fromPeer: true)]
    }

    /// Notes the sequence numbers of RTP delivered since the last call.
    mutating func noteDeliveries(_ deliveries: [MediaFuzzDelivery]) {
        for delivery in deliveries[deliveriesSeen...] where delivery.bytes.count >= 12 && !delivery.isRTCP {
            lastSent[delivery.ssrc] = delivery.sequenceNumber
        }
        deliveriesSeen = deliveries.count
    }

    /// An RTP packet of one of the publisher's streams (or another SSRC).
    mutating func rtpPacket(_ input: inout FuzzInput) -> [UInt8] {
        let stream = Int(input.byte()) % 5
        let sequenceStep = Int8(bitPattern: input.byte())
        let timestampStep = UInt32(input.byte())
        let flags = input.byte()
        let filler = input.byte()
        let ssrc: UInt32 =
            switch stream {
            case 0: MediaCoreFuzzRig.largeVideoSSRC
            case 1: MediaCoreFuzzRig.smallVideoSSRC
            case 2: MediaCoreFuzzRig.audioSSRC
            case 3: MediaCoreFuzzRig.retransmissionSSRC
            default: 0x5EED_0000 | UInt32(filler)
            }
        // Mostly the next packet; a step of 0 repeats one (with the bytes the rest of the input
        // gives it), a negative step comes late, and the last few steps jump far away: alone (a
        // stray, after which the stream goes on where it was) or for good (a restarted sender).
        let step: UInt16 =
            switch sequenceStep {
            case 1..<100: 1
            case Self.strayStep...: 30_000 &+ UInt16(bitPattern: Int16(sequenceStep))
            default: UInt16(bitPattern: Int16(sequenceStep))
            }
        let sequenceNumber = sequenceNumbers[ssrc, default: 1000] &+ step
        if !(Self.strayStep..<Self.restartStep).contains(sequenceStep) { sequenceNumbers[ssrc] = sequenceNumber }
        let timestamp = timestamps[ssrc, default: 90_000] &+ timestampStep &* 100
        timestamps[ssrc] = timestamp
        var payload: [UInt8] = []
        if stream == 3 {
            // RFC 4588: the original sequence number first, a little behind the large layer.
            let original = sequenceNumbers[MediaCoreFuzzRig.largeVideoSSRC, default: 1000] &- UInt16(filler & 15)
            payload = [UInt8(original >> 8), UInt8(truncatingIfNeeded: original)]
        }
        if flags & 0x02 != 0 { payload += keyframePrefix() }
        let size = Self.payloadSizes[Int(flags >> 4)]
        while payload.count < size { payload.append(filler &+ UInt8(truncatingIfNeeded: payload.count)) }
        let payloadType =
            stream == 2 ? MediaCoreFuzzRig.audioPayloadType : stream == 3 ? MediaCoreFuzzRig.retransmissionPayloadType : MediaCoreFuzzRig.videoPayloadType
        var packet = [UInt8](repeating: 0, count: RTPHeader.fixedHeaderLength)
        _ = packet.withUnsafeMutableBytes {
            RTPHeaderWriter.write(
                marker: flags & 0x01 != 0, payloadType: payloadType, sequenceNumber: sequenceNumber, timestamp: timestamp, ssrc: ssrc, into: $0)
        }
        if flags & 0x04 != 0 {
            // RFC 8285 one-byte form: the audio level (id 1, voice, level from the filler) and a
            // transport-wide sequence number (id 3), padded to a word.
            packet[0] |= 0x10
            packet += [0xBE, 0xDE, 0x00, 0x02, 0x10, 0x80 | (filler & 0x7F), 0x31, filler, 0x01, 0x00, 0x00, 0x00]
        }
        packet += payload
        if flags & 0x08 != 0 {
            // RTP padding the sender added (RFC 3550 §5.1): the relay forwards it as it came.
            let count = 1 + Int(filler & 7)
            packet[0] |= 0x20
            packet += [UInt8](repeating: 0, count: count - 1) + [UInt8(count)]
        }
        return packet
    }

    /// The first bytes of a keyframe's payload in the layout's codec.
    func keyframePrefix() -> [UInt8] {
        switch layout.codec {
        case "VP8": [0x10, 0x00, 0x00, 0x00, 0x9D, 0x01, 0x2A, 0x40, 0x01, 0xF0, 0x00]
        case "VP9": [0x08, 0x80, 0x49, 0x83, 0x42, 0x00]
        case "H264": [0x67, 0x42, 0xC0, 0x1E]
        default: [0x18, 0x0A, 0x0B, 0x00, 0x00, 0x00]
        }
    }

    /// RTCP a subscriber sends: a NACK behind its last video packet, a PLI, a NACK for audio, a
    /// receiver report, or raw bytes.
    mutating func subscriberFeedback(_ input: inout FuzzInput) -> MediaFuzzAction {
        let subscriber = Int(input.byte()) % max(1, layout.subscribers.count)
        let kind = input.byte()
        let first = input.byte()
        let second = input.byte()
        let video = MediaCoreFuzzRig.videoSSRC(ofSubscriber: subscriber)
        let audio = MediaCoreFuzzRig.audioSSRC(ofSubscriber: subscriber)
        var packet: [UInt8]
        switch kind % 5 {
        case 0, 2:
            let ssrc = kind % 5 == 0 ? video : audio
            packet = [UInt8](repeating: 0, count: RTCPWriter.genericNACKLength)
            _ = packet.withUnsafeMutableBytes {
                RTCPWriter.writeGenericNACK(
                    senderSSRC: 0xFEED, mediaSSRC: ssrc, packetID: lastSent[ssrc, default: 0] &- UInt16(first),
                    lostBitmask: UInt16(second) << 8 | UInt16(first),
                    into: $0, at: 0)
            }
        case 1:
            packet = [UInt8](repeating: 0, count: RTCPWriter.pictureLossIndicationLength)
            _ = packet.withUnsafeMutableBytes {
                RTCPWriter.writePictureLossIndication(senderSSRC: 0xFEED, mediaSSRC: first & 1 == 0 ? video : audio, into: $0, at: 0)
            }
        case 3:
            packet = [UInt8](repeating: 0, count: RTCPWriter.emptyReceiverReportLength)
            _ = packet.withUnsafeMutableBytes { RTCPWriter.writeReceiverReport(ssrc: 0xFEED, block: nil, into: $0, at: 0) }
        default:
            packet = Array(input.take(Int(first)))
        }
        return .receive([packet], transport: 2 + subscriber, fromPeer: second & 0x80 == 0 || kind % 5 != 4)
    }
}
