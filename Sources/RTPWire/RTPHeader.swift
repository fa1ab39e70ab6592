/// The parsed fixed header of one RTP packet (RFC 3550 section 5.1), plus the positions of
/// the header extension block, the payload and the padding inside the packet.
///
/// Parsing copies a handful of integers out of the packet and never allocates, so it is
/// meant to run once per received packet.
public struct RTPHeader: Sendable, Equatable {
    /// Length of the fixed part of every RTP header.
    public static let fixedHeaderLength = 12

    /// The marker bit; for video it usually flags the last packet of a frame.
    public var marker: Bool
    /// The 7-bit payload type.
    public var payloadType: UInt8
    /// The 16-bit sequence number.
    public var sequenceNumber: UInt16
    /// The 32-bit media timestamp.
    public var timestamp: UInt32
    /// The synchronisation source identifier.
    public var ssrc: UInt32
    /// How many contributing source identifiers follow the fixed header (0...15).
    public var csrcCount: Int
    /// Whether the padding bit is set.
    public var hasPadding: Bool
    /// Whether the extension bit is set.
    public var hasExtension: Bool
    /// The "defined by profile" field of the extension block, 0 when there is none.
    /// 0xBEDE marks one-byte elements, 0x1000...0x100F two-byte elements (RFC 8285).
    public var extensionProfile: UInt16
    /// Offset of the extension data (just after the 4-byte extension header), 0 when there is none.
    public var extensionOffset: Int
    /// Bytes of extension data, not counting the 4-byte extension header.
    public var extensionLength: Int
    /// Bytes before the payload: fixed header, CSRC list and extension block.
    public var headerLength: Int
    /// Bytes of payload, not counting padding.
    public var payloadLength: Int
    /// Bytes of padding at the end of the packet, including the count byte itself.
    public var paddingLength: Int

    /// Creates a header description from already known values.
    public init(
        marker: Bool,
        payloadType: UInt8,
        sequenceNumber: UInt16,
        timestamp: UInt32,
        ssrc: UInt32,
        csrcCount: Int = 0,
        hasPadding: Bool = false,
        hasExtension: Bool = false,
        extensionProfile: UInt16 = 0,
        extensionOffset: Int = 0,
        extensionLength: Int = 0,
        headerLength: Int = RTPHeader.fixedHeaderLength,
        payloadLength: Int = 0,
        paddingLength: Int = 0
    ) {
        self.marker = marker
        self.payloadType = payloadType
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.csrcCount = csrcCount
        self.hasPadding = hasPadding
        self.hasExtension = hasExtension
        self.extensionProfile = extensionProfile
        self.extensionOffset = extensionOffset
        self.extensionLength = extensionLength
        self.headerLength = headerLength
        self.payloadLength = payloadLength
        self.paddingLength = paddingLength
    }

    /// Offset of the first payload byte.
    public var payloadOffset: Int { headerLength }

    /// The contributing source identifier with index `index` (0 ..< `csrcCount`), read from
    /// the packet this header was parsed from; nil when the index or packet does not fit.
    public func csrc(at index: Int, in packet: UnsafeRawBufferPointer) -> UInt32? {
        guard index >= 0, index < csrcCount else { return nil }
        let offset = Self.fixedHeaderLength + 4 * index
        guard offset + 4 <= packet.count else { return nil }
        return packet.readUInt32(at: offset)
    }

    /// Parses the RTP header at the start of `packet`.
    ///
    /// Returns nil when the packet cannot be a well-formed RTP packet: shorter than 12 bytes,
    /// version other than 2, a CSRC list or extension block that runs past the end, or a
    /// padding count of 0 or larger than what follows the header.
    public static func parse(_ packet: UnsafeRawBufferPointer) -> RTPHeader? {
        let count = packet.count
        guard count >= fixedHeaderLength else { return nil }
        let first = packet[0]
        let second = packet[1]
        guard first >> 6 == 2 else { return nil }

        let hasPadding = first & 0x20 != 0
        let hasExtension = first & 0x10 != 0
        let csrcCount = Int(first & 0x0F)

        var headerLength = fixedHeaderLength + 4 * csrcCount
        guard headerLength <= count else { return nil }

        var extensionProfile: UInt16 = 0
        var extensionOffset = 0
        var extensionLength = 0
        if hasExtension {
            guard headerLength + 4 <= count else { return nil }
            extensionProfile = packet.readUInt16(at: headerLength)
            extensionLength = Int(packet.readUInt16(at: headerLength + 2)) * 4
            extensionOffset = headerLength + 4
            headerLength = extensionOffset + extensionLength
            guard headerLength <= count else { return nil }
        }

        var paddingLength = 0
        if hasPadding {
            // The last byte counts the padding including itself, so it can be neither 0 nor
            // reach back into the header.
            paddingLength = Int(packet[count - 1])
            guard paddingLength > 0, paddingLength <= count - headerLength else { return nil }
        }

        return RTPHeader(
            marker: second & 0x80 != 0,
            payloadType: second & 0x7F,
            sequenceNumber: packet.readUInt16(at: 2),
            timestamp: packet.readUInt32(at: 4),
            ssrc: packet.readUInt32(at: 8),
            csrcCount: csrcCount,
            hasPadding: hasPadding,
            hasExtension: hasExtension,
            extensionProfile: extensionProfile,
            extensionOffset: extensionOffset,
            extensionLength: extensionLength,
            headerLength: headerLength,
            payloadLength: count - headerLength - paddingLength,
            paddingLength: paddingLength
        )
    }
}
