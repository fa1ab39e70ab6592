/// The direction of an `a=rid` line (RFC 8851), seen from the writer of the description.
public enum SDPRIDDirection: String, Sendable, Hashable, CustomStringConvertible {
    /// The writer sends the stream.
    case send
    /// The writer receives the stream.
    case recv

    /// The direction seen from the other side.
    public var reversed: SDPRIDDirection { self == .send ? .recv : .send }

    /// The direction as written, `send` or `recv`.
    public var description: String { rawValue }
}
