import COpenSSLShims

/// OpenSSL's explanation of a failure, for messages and logs.
enum DTLSErrorText {
    /// Longest explanation kept.
    private static let capacity = 256

    /// OpenSSL's text for the oldest error queued on this thread (empty when there is
    /// none); empties the queue, so the error cannot be mistaken for a later one.
    static func take() -> String {
        var text = [CChar](repeating: 0, count: capacity)
        text.withUnsafeMutableBufferPointer { buffer in
            _ = pkr_dtls_take_error_text(buffer.baseAddress, buffer.count)
        }
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
