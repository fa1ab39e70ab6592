@_spi(Fuzzing) import MediaPlane
import RTPWire
import SecureTransport

extension FuzzTarget {
    /// The input is a room and a script for the media core's per-packet path. Two bytes set the
    /// room up (``mediaLayout(_:)``); then each step is an opcode byte and its arguments:
    ///
    /// - 0-2: an RTP packet from the publisher: a stream byte (large layer, small layer, audio,
    ///   the large layer's retransmissions, another SSRC), a signed sequence step, a timestamp
    ///   step, flags (marker, keyframe, header extensions, RTP padding, payload size) and a
    ///   filler byte. It joins the publisher's pending receive batch.
    /// - 3: a raw datagram from the publisher: a length byte (times 6) and that many bytes.
    /// - 4: a sender report from the publisher for a stream byte.
    /// - 5: RTCP from a subscriber: subscriber, kind (NACK behind its last video packet, PLI,
    ///   NACK for audio, receiver report, raw bytes) and two argument bytes.
    /// - 6: the pending batch is read (it is also read at 32 datagrams and before anything else).
    /// - 7: a control-plane change: kind, subscriber, argument (``MediaFuzzChange``).
    /// - 8: the clock moves on (1 ms to 5 s) and the timers run.
    /// - 9: an RTP packet as in 0-2, from an address no transport knows, alone in its batch.
    ///
    /// The script runs in two rigs: one reads batches as the shell does (back to back, forward
    /// runs, payloads sent from the batch), the other datagram by datagram, each in a buffer of
    /// exactly its size. Every stream every peer received must be the same in both (apart from
    /// segment padding, which only a batch adds); every SRTP datagram must open, or repeat one
    /// sent before byte for byte (a NACK answered on the sink's own SSRC); the publisher
    /// must get only RTCP; a subscriber only RTCP and RTP under its own sinks' SSRCs.
    static func runMedia(_ bytes: UnsafeRawBufferPointer, secondShard: Bool = false) {
        _ = playMedia(bytes, secondShard: secondShard)
    }

    /// Plays a `media` input in both rigs (with odd subscribers on a second shard, for the
    /// `shards` target), checks what they sent, and returns it.
    static func playMedia(_ bytes: UnsafeRawBufferPointer, secondShard: Bool = false) -> (batches: [MediaFuzzDelivery], packetwise: [MediaFuzzDelivery]) {
        var input = FuzzInput(bytes)
        var layout = mediaLayout(&input)
        layout.oddSubscribersOnSecondShard = secondShard
        guard let batches = try? MediaCoreFuzzRig(layout: layout, handlesBatches: true),
            let packetwise = try? MediaCoreFuzzRig(layout: layout, handlesBatches: false)
        else { preconditionFailure("the rig could not be set up") }
        var script = MediaFuzzScript(layout: layout)
        var steps = 0
        while input.position < input.bytes.count, steps < 2_000 {
            steps += 1
            for action in script.step(&input) {
                for rig in [batches, packetwise] {
                    switch action {
                    case .receive(let datagrams, let transport, let fromPeer): rig.receive(datagrams, on: transport, fromPeer: fromPeer)
                    case .change(let change): try? rig.apply(change)
                    case .advance(let milliseconds): rig.advance(milliseconds: milliseconds)
                    }
                }
                script.noteDeliveries(batches.deliveries)
            }
        }
        for action in script.finish() {
            guard case .receive(let datagrams, let transport, let fromPeer) = action else { continue }
            batches.receive(datagrams, on: transport, fromPeer: fromPeer)
            packetwise.receive(datagrams, on: transport, fromPeer: fromPeer)
        }
        checkDeliveries(batches.deliveries, layout: layout)
        checkDeliveries(packetwise.deliveries, layout: layout)
        compareStreams(batches.deliveries, packetwise.deliveries)
        return (batches.deliveries, packetwise.deliveries)
    }

    /// The room: subscriber count (1-4), retransmissions, audio level, codec, SRTP publisher and
    /// segment padding from the first byte; each subscriber's kind from two bits of the second.
    static func mediaLayout(_ input: inout FuzzInput) -> MediaFuzzLayout {
        let shape = input.byte()
        let kinds = input.byte()
        let count = 1 + Int(shape & 3)
        return MediaFuzzLayout(
            subscribers: (0..<count).map { MediaFuzzSubscriberKind.allCases[Int(kinds >> (2 * $0)) & 3] },
            codec: ["VP8", "VP9", "H264", "AV1"][Int(shape >> 4) & 3],
            retransmission: shape & 0x04 != 0,
            audioLevelExtensionId: shape & 0x08 != 0 ? 1 : nil,
            publisherUsesSRTP: shape & 0x40 != 0,
            segmentPadding: shape & 0x80 != 0 ? 255 : 0)
    }

    /// Every delivery opened (SRTP), and went where it may: RTCP only to the publisher, RTP to a
    /// subscriber only under its own sinks' SSRCs and parseable.
    static func checkDeliveries(_ deliveries: [MediaFuzzDelivery], layout: MediaFuzzLayout) {
        for delivery in deliveries {
            // A NACK answered on a sink's own SSRC repeats a datagram exactly; anything else under
            // an index already used would be a second plaintext under one AES-GCM nonce.
            let opened = delivery.status == nil || delivery.status == .ok || (delivery.status == .replayed && delivery.repeatsEarlierDatagram)
            precondition(
                opened, "a datagram to transport \(delivery.transport) did not open (\(String(describing: delivery.status))): \(delivery.bytes.prefix(12))")
            precondition(delivery.bytes.count >= 8, "a datagram of \(delivery.bytes.count) bytes went to transport \(delivery.transport)")
            if delivery.transport == MediaCoreFuzzRig.publisherTransport {
                precondition(delivery.isRTCP, "the publisher was sent RTP")
                continue
            }
            let subscriber = delivery.transport - 2
            precondition(layout.subscribers.indices.contains(subscriber), "a datagram went to unknown transport \(delivery.transport)")
            guard !delivery.isRTCP else { continue }
            let ssrc = delivery.ssrc
            precondition(RTPHeader.parse(delivery.bytes)?.ssrc == ssrc, "subscriber \(subscriber) was sent RTP that does not parse")
            let own: Set<UInt32> = [
                MediaCoreFuzzRig.videoSSRC(ofSubscriber: subscriber), MediaCoreFuzzRig.retransmissionSSRC(ofSubscriber: subscriber),
                MediaCoreFuzzRig.audioSSRC(ofSubscriber: subscriber),
            ]
            precondition(own.contains(ssrc), "subscriber \(subscriber) was sent SSRC \(ssrc)")
        }
    }

    /// Each peer's streams (per SSRC, and its RTCP per type and SSRC) hold the same datagrams in both rigs; a
    /// datagram may differ only by segment padding one rig added.
    static func compareStreams(_ batches: [MediaFuzzDelivery], _ packetwise: [MediaFuzzDelivery]) {
        func streams(_ deliveries: [MediaFuzzDelivery]) -> [String: [[UInt8]]] {
            var streams: [String: [[UInt8]]] = [:]
            for delivery in deliveries {
                let bytes = delivery.bytes
                // RTCP by type and the stream it is about (a sender report's sender, the media
                // SSRC of the rest): the core's timers visit sources in dictionary order, which
                // differs between two cores.
                let about = MediaFuzzDelivery.word(bytes, at: delivery.isRTCP && bytes[1] == 200 || bytes.count < 12 ? 4 : 8)
                let key = "\(delivery.transport) \(delivery.isRTCP ? "rtcp \(bytes[1]) " : "")\(about)"
                streams[key, default: []].append(bytes)
            }
            return streams
        }
        let a = streams(batches)
        let b = streams(packetwise)
        precondition(a.keys.sorted() == b.keys.sorted(), "the rigs sent on different streams: \(a.keys.sorted()) and \(b.keys.sorted())")
        for (key, first) in a {
            let second = b[key] ?? []
            precondition(first.count == second.count, "stream \(key): \(first.count) datagrams reading batches, \(second.count) datagram by datagram")
            for (index, (x, y)) in zip(first, second).enumerated() {
                precondition(x == y || isSegmentPadded(x, from: y) || isSegmentPadded(y, from: x), "stream \(key): datagram \(index) differs")
            }
        }
    }

    /// Whether `padded` is `plain` with RTP padding appended as the core pads a segment: the P
    /// bit set, zeros, the count last.
    static func isSegmentPadded(_ padded: [UInt8], from plain: [UInt8]) -> Bool {
        guard padded.count > plain.count, plain[0] & 0x20 == 0, padded[0] == plain[0] | 0x20 else { return false }
        let count = padded.count - plain.count
        guard count <= 255, Int(padded[padded.count - 1]) == count else { return false }
        return padded[1..<plain.count] == plain[1...] && padded[plain.count..<(padded.count - 1)].allSatisfy { $0 == 0 }
    }
}
