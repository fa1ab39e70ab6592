/// The tag of a packet on a pipe between media cores: its kind in the top byte, the source id it
/// belongs to in the low 32 bits. Source ids are the same on both ends: a remote source takes the
/// id of the source it mirrors.
enum PipeTag {
    /// A source's RTP packet, decrypted, for the remote source of that id.
    static let media: UInt64 = 1
    /// A source's RTCP sender report, for the remote source of that id.
    static let senderReport: UInt64 = 2
    /// A remote source's subscribers want a keyframe from the source of that id.
    static let keyframeRequest: UInt64 = 3
    /// A remote source's newly bound (or resynchronised) subscribers wait for their first
    /// keyframe from the source of that id.
    static let keyframeRequestForWaitingSinks: UInt64 = 4

    /// Whether a message of this kind travels towards the core that owns the source.
    @inline(__always)
    static func isKeyframeRequest(_ kind: UInt64) -> Bool { kind == keyframeRequest || kind == keyframeRequestForWaitingSinks }

    @inline(__always)
    static func make(_ kind: UInt64, source: UInt32) -> UInt64 { kind << 56 | UInt64(source) }

    @inline(__always)
    static func kind(of tag: UInt64) -> UInt64 { tag >> 56 }

    @inline(__always)
    static func source(of tag: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: tag) }
}
