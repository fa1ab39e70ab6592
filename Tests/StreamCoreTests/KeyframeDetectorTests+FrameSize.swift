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
}
