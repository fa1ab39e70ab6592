/// Reads a fuzzer's input front to back: a few bytes that steer the target, then the rest.
///
/// Past the end every read gives zeros, so a short input still picks a path.
struct FuzzInput {
    let bytes: UnsafeRawBufferPointer
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The next byte, or 0 past the end.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next two bytes, big-endian.
    mutating func uint16() -> UInt16 {
        UInt16(byte()) << 8 | UInt16(byte())
    }

    /// The next four bytes, big-endian.
    mutating func uint32() -> UInt32 {
        UInt32(uint16()) << 16 | UInt32(uint16())
    }

    /// The next eight bytes, big-endian.
    mutating func uint64() -> UInt64 {
        UInt64(uint32()) << 32 | UInt64(uint32())
    }

    /// Up to `count` next bytes.
    mutating func take(_ count: Int) -> UnsafeRawBufferPointer {
        let end = position + min(max(count, 0), bytes.count - position)
        defer { position = end }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<end])
    }

    /// Everything not read yet.
    mutating func rest() -> UnsafeRawBufferPointer {
        take(bytes.count - position)
    }
}
