import StreamCore
import Testing

/// The coded size a VP8 keyframe states, read from its first packet's first bytes.
extension KeyframeDetectorTests {
    static func size(_ bytes: [UInt8], codec: VideoCodec = .vp8) -> VideoFrameSize? {
        bytes.withUnsafeBytes { KeyframeDetector.frameSize(codec: codec, payload: $0) }
    }

    /// A VP8 keyframe's first bytes after `descriptor`: frame tag (P bit 0), start code, then
    /// 14-bit width and height with 2 scaling bits above each.
    static func keyframe(descriptor: [UInt8], width: Int, height: Int, scale: UInt8 = 0) -> [UInt8] {
        descriptor + [0x50, 0x02, 0x00, 0x9D, 0x01, 0x2A, UInt8(width & 0xFF), UInt8(width >> 8) | scale << 6, UInt8(height & 0xFF), UInt8(height >> 8)]
    }

    @Test func aVP8KeyframeStatesItsSizeWhateverItsDescriptorAndScalingBits() {
        #expect(Self.size(Self.keyframe(descriptor: [0x10], width: 1280, height: 720)) == VideoFrameSize(width: 1280, height: 720))
        // X set with a 15-bit picture ID, TL0PICIDX and the TID/KEYIDX byte.
        let extended: [UInt8] = [0x90, 0xF0, 0x81, 0x23, 0x05, 0x40]
        #expect(Self.size(Self.keyframe(descriptor: extended, width: 320, height: 180)) == VideoFrameSize(width: 320, height: 180))
        // The scaling bits are not part of the size.
        #expect(Self.size(Self.keyframe(descriptor: [0x10], width: 640, height: 360, scale: 3)) == VideoFrameSize(width: 640, height: 360))
    }

    @Test func anythingButTheFirstPacketOfAVP8KeyframeStatesNoSize() {
        let keyframe = Self.keyframe(descriptor: [0x10], width: 640, height: 360)
        // A delta frame (P bit set), a later packet (S clear), a wrong start code, a zero size.
        var delta = keyframe
        delta[1] |= 0x01
        #expect(Self.size(delta) == nil)
        #expect(Self.size([0x00] + keyframe.dropFirst()) == nil)
        var badStart = keyframe
        badStart[4] = 0x9C
        #expect(Self.size(badStart) == nil)
        #expect(Self.size(Self.keyframe(descriptor: [0x10], width: 0, height: 360)) == nil)
        // Every cut short of the full size, and the other codecs.
        for length in 0..<keyframe.count { #expect(Self.size(Array(keyframe.prefix(length))) == nil) }
        #expect(Self.size(keyframe, codec: .h264) == nil)
    }

    /// Sequence parameter sets from libx264 (baseline, main and high profiles; emulation
    /// prevention bytes, frame cropping for 360, 180 and 1080 lines).
    static let sequenceParameterSets: [(hex: String, width: Int, height: Int)] = [
        ("6742c01ed900a02ff970110000030001000003003c0f162e48", 640, 360),
        ("6764001facd9405005bb0110000003001000000303c0f1831960", 1280, 720),
        ("674d400deca0a0cfcf8088000003000800000301e078a14cb0", 320, 180),
        ("67640028acd940780227e5c044000003000400000300f03c60c658", 1920, 1080),
    ]

    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
    }

    @Test func anH264SequenceParameterSetStatesItsCroppedSizeAloneOrInAnAggregationPacket() {
        let pictureParameterSet: [UInt8] = [0x68, 0xEB, 0xE3, 0xCB, 0x22, 0xC0]
        for set in Self.sequenceParameterSets {
            let unit = Self.bytes(set.hex)
            let expected = VideoFrameSize(width: set.width, height: set.height)
            #expect(Self.size(unit, codec: .h264) == expected, "\(set.hex)")
            // A STAP-A: the parameter sets, each after its 16-bit size.
            let aggregate =
                [0x78] + [UInt8(unit.count >> 8), UInt8(unit.count & 0xFF)] + unit + [0x00, UInt8(pictureParameterSet.count)] + pictureParameterSet
            #expect(Self.size(aggregate, codec: .h264) == expected, "\(set.hex) in a STAP-A")
            // The parameter set second in the STAP-A.
            let second = [0x78, 0x00, UInt8(pictureParameterSet.count)] + pictureParameterSet + [UInt8(unit.count >> 8), UInt8(unit.count & 0xFF)] + unit
            #expect(Self.size(second, codec: .h264) == expected)
            // Cut short anywhere: nothing read past the end, and no size unless the cut spares
            // everything up to the cropping (what follows, the VUI, is not read).
            for length in 0..<unit.count {
                let cut = Self.size(Array(unit.prefix(length)), codec: .h264)
                #expect(cut == nil || cut == expected)
                if length <= 5 { #expect(cut == nil) }
            }
            // A STAP-A whose size field overruns the packet.
            #expect(Self.size([0x78, 0x01, 0x00] + unit, codec: .h264) == nil)
        }
        // An IDR slice or an FU-A carries no parameter set.
        #expect(Self.size([0x65, 0x88, 0x84, 0x00], codec: .h264) == nil)
        #expect(Self.size([0x7C, 0x87] + Self.bytes(Self.sequenceParameterSets[0].hex).dropFirst(), codec: .h264) == nil)
    }
}
