/// Reads an H.264 NAL unit's payload bit by bit, Exp-Golomb codes included, skipping the
/// emulation prevention bytes (a 0x03 after two zero bytes) as it goes, so that nothing is
/// copied. Every read answers nil past the end.
struct H264BitReader {
    private let bytes: UnsafeRawBufferPointer
    private var index: Int
    /// Zero bytes read in a row, for spotting emulation prevention.
    private var zeros = 0
    private var current: UInt8 = 0
    /// Bits of `current` still unread (0: the next byte is due).
    private var bitsLeft = 0

    /// Starts at `offset` in `bytes`.
    init(_ bytes: UnsafeRawBufferPointer, offset: Int) {
        self.bytes = bytes
        self.index = offset
    }

    private mutating func nextByte() -> Bool {
        if zeros >= 2, index < bytes.count, bytes[index] == 0x03 {
            index += 1
            zeros = 0
        }
        guard index < bytes.count else { return false }
        current = bytes[index]
        index += 1
        zeros = current == 0 ? zeros + 1 : 0
        bitsLeft = 8
        return true
    }

    mutating func bit() -> UInt32? {
        if bitsLeft == 0, !nextByte() { return nil }
        bitsLeft -= 1
        return UInt32(current >> UInt8(bitsLeft) & 1)
    }

    mutating func bits(_ count: Int) -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let bit = bit() else { return nil }
            value = value << 1 | bit
        }
        return value
    }

    /// ue(v); nil past the end or for a code longer than 32 bits.
    mutating func unsignedExpGolomb() -> UInt32? {
        var leadingZeros = 0
        while true {
            guard let bit = bit() else { return nil }
            if bit == 1 { break }
            leadingZeros += 1
            if leadingZeros > 31 { return nil }
        }
        guard let rest = bits(leadingZeros) else { return nil }
        return UInt32((UInt64(1) << UInt64(leadingZeros)) - 1 + UInt64(rest))
    }

    /// se(v).
    mutating func signedExpGolomb() -> Int64? {
        guard let code = unsignedExpGolomb() else { return nil }
        return code & 1 == 1 ? Int64(code / 2) + 1 : -Int64(code / 2)
    }
}
