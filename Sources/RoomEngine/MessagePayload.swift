/// A room or user message: UTF-8 text or base64 binary, with its decoded size.
public struct MessagePayload: Sendable, Hashable {
    public var text: String?
    public var base64: String?
    /// Bytes of the message (text bytes, or decoded binary bytes).
    public var byteCount: Int

    public init(text: String?, base64: String?, byteCount: Int) {
        self.text = text
        self.base64 = base64
        self.byteCount = byteCount
    }
}
