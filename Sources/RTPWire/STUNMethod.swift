/// A 12-bit STUN method number (RFC 8489 section 18.2).
public struct STUNMethod: RawRepresentable, Sendable, Hashable {
    /// The method number; only the low 12 bits are meaningful.
    public var rawValue: UInt16

    /// Creates a method from its number, keeping the low 12 bits.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue & 0x0FFF
    }

    /// Binding: the only method ICE uses, for connectivity checks and keepalives.
    public static let binding = STUNMethod(rawValue: 0x001)
}
