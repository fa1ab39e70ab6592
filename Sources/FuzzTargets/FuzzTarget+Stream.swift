@_spi(Fuzzing) import MediaPlane

extension FuzzTarget {
    /// The input is the framing's sizes and the pieces a client writes (``StreamFramingFuzz/run(_:)``).
    static func runStream(_ bytes: UnsafeRawBufferPointer) {
        StreamFramingFuzz.run(bytes)
    }
}
