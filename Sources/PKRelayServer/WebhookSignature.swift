import SecureTransport

/// The `X-PKRelay-Signature` header: `v1=` and the hex HMAC-SHA256, keyed with
/// `webhooks.secret`, of the `X-PKRelay-Timestamp` value, a dot, and the raw body.
public enum WebhookSignature {
    /// The header value for a body sent at `timestamp` (the `X-PKRelay-Timestamp` text).
    public static func header(secret: String, timestamp: String, body: [UInt8]) -> String {
        let code = HMACSHA256.authenticationCode(key: Array(secret.utf8), message: Array(timestamp.utf8) + [UInt8(ascii: ".")] + body)
        return "v1="
            + code.map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined()
    }

    /// Whether `header` signs `body` sent at `timestamp` (constant time).
    public static func isValid(_ header: String, secret: String, timestamp: String, body: [UInt8]) -> Bool {
        let expected = Self.header(secret: secret, timestamp: timestamp, body: body)
        return HMACSHA256.constantTimeEquals(Array(expected.utf8), Array(header.utf8))
    }
}
