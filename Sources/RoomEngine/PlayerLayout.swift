public import Protocol

/// What a player's offer (a WHEP client) fixes for a receiving WebRTC transport: for each kind
/// its section's mid and the codecs it takes, under its own payload types. The relay sends into
/// those sections only, with those numbers, and never offers anything itself.
public struct PlayerLayout: Sendable, Hashable {
    /// A codec the player takes, with the rtx payload type it pairs with it, if any.
    public struct Codec: Sendable, Hashable {
        public var payloadType: UInt8
        public var name: String
        public var clockRate: Int
        public var channels: Int?
        public var formatParameters: String?
        public var retransmissionPayloadType: UInt8?

        public init(payloadType: UInt8, name: String, clockRate: Int, channels: Int?, formatParameters: String?, retransmissionPayloadType: UInt8?) {
            self.payloadType = payloadType
            self.name = name
            self.clockRate = clockRate
            self.channels = channels
            self.formatParameters = formatParameters
            self.retransmissionPayloadType = retransmissionPayloadType
        }
    }

    /// One section of the player's offer.
    public struct Section: Sendable, Hashable {
        public var mid: String
        public var kind: TrackKind
        public var codecs: [Codec]

        public init(mid: String, kind: TrackKind, codecs: [Codec]) {
            self.mid = mid
            self.kind = kind
            self.codecs = codecs
        }
    }

    public var sections: [Section]

    public init(sections: [Section]) { self.sections = sections }

    /// The player's codec for a track of `kind` sent as `codec` (`name/clock/channels/fmtp`,
    /// lowercased name): the same format parameters if offered, else the same name and clock.
    func codec(for kind: TrackKind, name: String, clockRate: Int, channels: Int?, parameters: String?) -> (mid: String, codec: Codec)? {
        guard let section = sections.first(where: { $0.kind == kind }) else { return nil }
        let candidates = section.codecs.filter {
            $0.name.lowercased() == name.lowercased() && $0.clockRate == clockRate && (kind == .video || ($0.channels ?? 1) == (channels ?? 1))
        }
        guard let chosen = candidates.first(where: { $0.formatParameters == parameters }) ?? candidates.first else { return nil }
        return (section.mid, chosen)
    }
}
