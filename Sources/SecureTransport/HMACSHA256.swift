import COpenSSLShims

/// HMAC-SHA-256 (RFC 2104, RFC 4231) and a timing-safe comparison for checking codes.
public enum HMACSHA256 {
    /// Length in bytes of an HMAC-SHA-256 code.
    public static let codeLength = 32

    /// Computes the 32-byte HMAC-SHA-256 of `message` under `key`.
    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        key.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                [UInt8](unsafeUninitializedCapacity: codeLength) { code, initializedCount in
                    guard
                        pkr_hmac_sha256(
                            key.baseAddress, key.count, message.baseAddress, message.count,
                            code.baseAddress) == 1
                    else {
                        fatalError("OpenSSL HMAC-SHA-256 failed")
                    }
                    initializedCount = codeLength
                }
            }
        }
    }

    /// Compares two byte strings in time that depends only on their length, so an attacker
    /// probing a token cannot learn how many leading bytes were right. Different lengths
    /// compare unequal at once; lengths of codes are not secret.
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                pkr_constant_time_equal(a.baseAddress, b.baseAddress, a.count) == 1
            }
        }
    }
}
