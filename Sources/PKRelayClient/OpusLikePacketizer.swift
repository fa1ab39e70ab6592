/// Produces Opus-like audio RTP packets: payload type 111, a 48 kHz clock and 960 samples
/// (20 ms) per packet. The payload is a TOC byte for a 20 ms CELT frame followed by a pattern
/// derived from the packet index; a relay forwards it without looking inside.
public struct OpusLikePacketizer: Sendable {
    /// The SSRC of the packets.
    public let ssrc: UInt32
    /// The RTP payload type (111 by default).
    public let payloadType: UInt8
    /// The sequence number of the next packet.
    public private(set) var sequenceNumber: UInt16
    /// The timestamp of the next packet.
    public private(set) var timestamp: UInt32
    /// Packets produced so far.
    public private(set) var packetCount = 0

    /// Samples per packet: 20 ms at 48 kHz.
    public static let samplesPerPacket: UInt32 = 960

    /// Creates a packetizer; sequence number and timestamp start at random values by default.
    public init(
        ssrc: UInt32, payloadType: UInt8 = 111, initialSequenceNumber: UInt16 = .random(in: 0...UInt16.max),
        initialTimestamp: UInt32 = .random(in: 0...UInt32.max)
    ) {
        self.ssrc = ssrc
        self.payloadType = payloadType
        self.sequenceNumber = initialSequenceNumber
        self.timestamp = initialTimestamp
    }

    /// The next 20 ms packet, `size` payload bytes long (at least 1), with an RFC 6464 audio
    /// level in extension element `audioLevel.id` when given.
    public mutating func nextPacket(size: Int = 80, audioLevel: (id: UInt8, level: UInt8, voiceActivity: Bool)? = nil) -> OutgoingRTPPacket {
        var payload: [UInt8] = [0xFC]
        let seed = UInt8(truncatingIfNeeded: packetCount &* 11)
        for position in 1..<max(size, 1) {
            payload.append(seed &+ UInt8(truncatingIfNeeded: position))
        }
        let packet = OutgoingRTPPacket(
            marker: packetCount == 0, payloadType: payloadType, sequenceNumber: sequenceNumber,
            timestamp: timestamp, ssrc: ssrc, payload: payload,
            headerExtension: audioLevel.map { OutgoingRTPPacket.audioLevelElement(id: $0.id, level: $0.level, voiceActivity: $0.voiceActivity) } ?? [])
        sequenceNumber &+= 1
        timestamp &+= Self.samplesPerPacket
        packetCount += 1
        return packet
    }
}
