/// The 96-bit transaction ID of a STUN message, held as two integers so it can be stored
/// and compared without allocating.
public struct STUNTransactionID: Sendable, Hashable {
    /// Header bytes 8 to 11, in network order.
    public var high: UInt32
    /// Header bytes 12 to 19, in network order.
    public var low: UInt64

    /// Creates a transaction ID from its two parts.
    public init(high: UInt32, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Creates a transaction ID from exactly 12 bytes; nil for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 12 else { return nil }
        var high: UInt32 = 0
        for byte in bytes[0..<4] { high = high << 8 | UInt32(byte) }
        var low: UInt64 = 0
        for byte in bytes[4..<12] { low = low << 8 | UInt64(byte) }
        self.init(high: high, low: low)
    }

    /// A transaction ID from `generator`; pass a cryptographically secure one, because the
    /// ID is what stops an off-path attacker from forging a response.
    public static func random(using generator: inout some RandomNumberGenerator) -> STUNTransactionID {
        STUNTransactionID(high: UInt32.random(in: .min ... .max, using: &generator), low: generator.next())
    }

    /// The 12 bytes in wire order.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: high >> UInt32(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: low >> UInt64(shift))) }
        return bytes
    }

    /// Reads the transaction ID of the message starting at the beginning of `packet`; the
    /// caller has checked that the 20-byte header is there.
    static func read(from packet: UnsafeRawBufferPointer) -> STUNTransactionID {
        STUNTransactionID(high: packet.readUInt32(at: 8), low: packet.readUInt64(at: 12))
    }

    /// Writes the transaction ID into header bytes 8 to 19; the caller has checked the bounds.
    func write(into buffer: UnsafeMutableRawBufferPointer) {
        buffer.writeUInt32(high, at: 8)
        buffer.writeUInt64(low, at: 12)
    }
}
