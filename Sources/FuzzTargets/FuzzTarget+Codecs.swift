import StreamCore

extension FuzzTarget {
    /// The input is a series of RTP payloads, each a length byte, a source generation byte and
    /// that many bytes. Every payload goes through each codec's keyframe detector and frame-size
    /// reader (which must read only inside it; a size only for a keyframe, and never 0) and then through one subscriber's VP8 descriptor rewriter, which
    /// must keep the length, the descriptor's flags and what the VP8 detector sees.
    static func runCodecs(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzInput(bytes)
        var rewriter = VP8DescriptorRewriter()
        while input.position < input.bytes.count {
            let length = Int(input.byte())
            let generation = UInt32(input.byte())
            let payload = input.take(length)
            var answers: [Bool] = []
            for codec in VideoCodec.allCases {
                answers.append(KeyframeDetector.isKeyframe(codec: codec, payload: payload))
                if let size = KeyframeDetector.frameSize(codec: codec, payload: payload) {
                    precondition(answers.last == true, "a frame size read from a packet that starts no keyframe")
                    precondition(size.width > 0 && size.height > 0 && size.width < 1 << 14 && size.height < 1 << 14, "a frame size out of range")
                }
                precondition(VideoCodec.named(codec.rawValue.lowercased()) == codec, "codec names do not round-trip")
            }
            var rewritten = Array(payload)
            rewritten.withUnsafeMutableBytes { rewriter.rewrite(generation: generation, payload: $0) }
            precondition(rewritten.count == payload.count, "the rewriter changed the length")
            if payload.count >= 2 {
                precondition(rewritten[0] == payload[0] && rewritten[1] == payload[1], "the rewriter changed the descriptor's flags")
            }
            if payload.count >= 3 {
                // The M bit says whether the picture ID is 7 or 15 bits; it decides the layout.
                precondition(
                    rewritten[2] & 0x80 == payload[2] & 0x80 || payload[1] & 0x80 == 0 || payload[0] & 0x80 == 0, "the rewriter changed the picture ID's width")
            }
            let stillKeyframe = rewritten.withUnsafeBytes { KeyframeDetector.isKeyframe(codec: .vp8, payload: $0) }
            precondition(stillKeyframe == answers[VideoCodec.allCases.firstIndex(of: .vp8)!], "rewriting changed what the VP8 detector sees")
        }
    }
}
