extension RTPHeader {
    /// Parses the RTP header at the start of `bytes`.
    ///
    /// A convenience for tests and tools; per-packet code should call the
    /// `UnsafeRawBufferPointer` overload on the receive buffer directly.
    public static func parse(_ bytes: [UInt8]) -> RTPHeader? {
        bytes.withUnsafeBytes { parse($0) }
    }
}
