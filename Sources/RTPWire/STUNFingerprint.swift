/// The FINGERPRINT computation (RFC 8489 section 14.7): the CRC-32 of ISO HDLC / IEEE 802.3
/// over the message up to the attribute, XORed with 0x5354554E ("STUN").
public enum STUNFingerprint {
    /// XORed into the CRC so a STUN message inside another protocol's payload that
    /// carries its own CRC-32 cannot be mistaken for a valid fingerprint.
    public static let xorValue: UInt32 = 0x5354_554E

    /// The byte-at-a-time lookup table for the reflected polynomial 0xEDB88320.
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 != 0 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }

    /// The CRC-32 of `bytes` (initial value and final XOR 0xFFFFFFFF); "123456789" gives
    /// 0xCBF43926.
    public static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8)
            }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The FINGERPRINT value for the `length` bytes at the start of `message`, which must
    /// already carry the header length field that includes the FINGERPRINT attribute.
    public static func value(over message: UnsafeRawBufferPointer, length: Int) -> UInt32 {
        crc32(UnsafeRawBufferPointer(rebasing: message[0..<length])) ^ xorValue
    }
}
