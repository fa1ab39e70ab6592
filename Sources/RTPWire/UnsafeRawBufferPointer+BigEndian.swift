extension UnsafeRawBufferPointer {
    /// Reads a network-order `UInt16` at `offset`; the caller has already checked the bounds.
    func readUInt16(at offset: Int) -> UInt16 {
        UInt16(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// Reads a network-order `UInt32` at `offset`; the caller has already checked the bounds.
    func readUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// Reads a network-order `UInt64` at `offset`; the caller has already checked the bounds.
    func readUInt64(at offset: Int) -> UInt64 {
        UInt64(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
