extension UnsafeMutableRawBufferPointer {
    /// Writes `value` in network order at `offset`; the caller has already checked the bounds.
    func writeUInt16(_ value: UInt16, at offset: Int) {
        storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt16.self)
    }

    /// Writes `value` in network order at `offset`; the caller has already checked the bounds.
    func writeUInt32(_ value: UInt32, at offset: Int) {
        storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt32.self)
    }

    /// Writes `value` in network order at `offset`; the caller has already checked the bounds.
    func writeUInt64(_ value: UInt64, at offset: Int) {
        storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt64.self)
    }

    /// Whether `byteCount` bytes starting at `offset` lie inside this buffer.
    func hasRoom(for byteCount: Int, at offset: Int) -> Bool {
        baseAddress != nil && offset >= 0 && byteCount <= count && offset <= count - byteCount
    }
}
