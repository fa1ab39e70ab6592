/// Reads a payload front to back without ever reading past its end.
///
/// Every read reports running out of bytes instead of trapping, which is what lets the keyframe
/// detector answer `false` for truncated payloads.
struct PayloadCursor {
    /// The bytes being read.
    private let bytes: UnsafeRawBufferPointer
    /// The index of the next byte to read.
    private(set) var offset = 0

    /// Starts reading at the first byte of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The number of bytes not read yet.
    var remaining: Int { bytes.count - offset }

    /// Reads the next byte, or returns `nil` at the end.
    @inline(__always)
    mutating func readByte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Moves past `count` bytes; returns `false`, without moving, when fewer are left.
    @inline(__always)
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        offset += count
        return true
    }
}
