/// Produces synthetic VP8 RTP packets (RFC 7741) for tests and load tools.
///
/// The frames are not decodable pictures, but every packet carries a correct one-byte VP8
/// payload descriptor (S set on the first packet of a frame, partition index 0, no extensions)
/// and the first packet starts with a VP8 frame tag whose P bit is 0 for keyframes and 1
/// otherwise; keyframes also carry the start code and a size (320x240 unless told). That is all a relay looks
/// at to find keyframes. The last packet of a frame has the marker bit set, and all packets of a
/// frame share one timestamp.
public struct VP8Packetizer: Sendable {
    /// The SSRC of the packets.
    public let ssrc: UInt32
    /// The RTP payload type (96 by default).
    public let payloadType: UInt8
    /// The largest RTP payload produced, descriptor included.
    public let maximumPayloadSize: Int
    /// The sequence number of the next packet.
    public private(set) var sequenceNumber: UInt16
    /// The timestamp of the next frame.
    public private(set) var timestamp: UInt32
    /// Frames produced so far.
    public private(set) var frameCount = 0
    /// The size keyframes state (a simulcast layer's resolution, for a relay matching layers
    /// to rendered sizes).
    public var width = 320
    public var height = 240

    /// Creates a packetizer.
    ///
    /// - Parameters:
    ///   - ssrc: The SSRC to send with.
    ///   - payloadType: The payload type (96 by default).
    ///   - initialSequenceNumber: The first sequence number (random by default).
    ///   - initialTimestamp: The first frame's timestamp (random by default).
    ///   - maximumPayloadSize: The largest payload per packet (at least 16 bytes).
    public init(
        ssrc: UInt32, payloadType: UInt8 = 96, initialSequenceNumber: UInt16 = .random(in: 0...UInt16.max),
        initialTimestamp: UInt32 = .random(in: 0...UInt32.max), maximumPayloadSize: Int = 1000
    ) {
        self.ssrc = ssrc
        self.payloadType = payloadType
        self.sequenceNumber = initialSequenceNumber
        self.timestamp = initialTimestamp
        self.maximumPayloadSize = max(16, maximumPayloadSize)
    }

    /// The packets of the next frame; afterwards the timestamp advances by `timestampIncrement`
    /// (3000 ticks of the 90 kHz clock: 30 frames per second).
    ///
    /// - Parameters:
    ///   - keyframe: Whether the frame is a keyframe (P bit 0).
    ///   - size: The frame's size in bytes, frame header included (at least 10).
    ///   - timestampIncrement: The distance to the next frame's timestamp.
    public mutating func nextFrame(keyframe: Bool, size: Int = 2500, timestampIncrement: UInt32 = 3000) -> [OutgoingRTPPacket] {
        let frame = Self.frameBytes(keyframe: keyframe, size: max(size, 10), frameIndex: frameCount, width: width, height: height)
        let chunkSize = maximumPayloadSize - 1
        var packets: [OutgoingRTPPacket] = []
        var offset = 0
        while offset < frame.count {
            let end = min(offset + chunkSize, frame.count)
            // X=0, R=0, N=0, S=1 only on the first packet, PID=0.
            let descriptor: UInt8 = offset == 0 ? 0x10 : 0x00
            packets.append(
                OutgoingRTPPacket(
                    marker: end == frame.count, payloadType: payloadType, sequenceNumber: sequenceNumber,
                    timestamp: timestamp, ssrc: ssrc, payload: [descriptor] + frame[offset..<end]))
            sequenceNumber &+= 1
            offset = end
        }
        timestamp &+= timestampIncrement
        frameCount += 1
        return packets
    }

    /// Whether `payload` (an RTP payload of VP8) starts a keyframe: S set, partition index 0 and
    /// the frame tag's P bit clear. Handles the descriptor's optional extension bytes.
    public static func isKeyframe(payload: [UInt8]) -> Bool {
        guard let first = payload.first, first & 0x10 != 0, first & 0x07 == 0 else { return false }
        var index = 1
        if first & 0x80 != 0 {
            guard payload.count > index else { return false }
            let bits = payload[index]
            index += 1
            if bits & 0x80 != 0 {
                guard payload.count > index else { return false }
                index += payload[index] & 0x80 != 0 ? 2 : 1
            }
            if bits & 0x40 != 0 { index += 1 }
            if bits & 0x30 != 0 { index += 1 }
        }
        guard payload.count > index else { return false }
        return payload[index] & 0x01 == 0
    }

    /// A frame: the 3-byte frame tag (P bit, version 0, shown, first partition size), for
    /// keyframes the start code and dimensions, then a filler pattern derived from the frame index.
    static func frameBytes(keyframe: Bool, size: Int, frameIndex: Int, width: Int = 320, height: Int = 240) -> [UInt8] {
        let headerLength = keyframe ? 10 : 3
        let partitionSize = UInt32(max(0, size - headerLength))
        let tag = (keyframe ? 0 : 1) | (1 << 4) | (partitionSize << 5)
        var bytes: [UInt8] = [UInt8(tag & 0xFF), UInt8(tag >> 8 & 0xFF), UInt8(tag >> 16 & 0xFF)]
        if keyframe {
            bytes += [0x9D, 0x01, 0x2A, UInt8(width & 0xFF), UInt8(width >> 8 & 0x3F), UInt8(height & 0xFF), UInt8(height >> 8 & 0x3F)]
        }
        let seed = UInt8(truncatingIfNeeded: frameIndex &* 37)
        for position in 0..<(size - headerLength) {
            bytes.append(seed &+ UInt8(truncatingIfNeeded: position))
        }
        return bytes
    }
}
