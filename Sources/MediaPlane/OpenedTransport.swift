public import SecureTransport

/// A transport the media plane opened: its id, local port and the key the relay encrypts with.
public struct OpenedTransport: Sendable, Hashable {
    public var id: Int
    public var port: Int
    public var profile: SRTPProfile?
    /// The relay's SDES keying material (absent for plain RTP).
    public var relayKey: [UInt8]?
}
