import COpenSSLShims

/// HMAC-SHA-1 (RFC 2104), the MAC of STUN's MESSAGE-INTEGRITY attribute.
///
/// SHA-1 is weak as a hash, but HMAC-SHA-1 is still sound as a MAC and is what every ICE
/// peer uses for connectivity checks.
public enum HMACSHA1 {
    /// Length in bytes of an HMAC-SHA-1 code.
    public static let codeLength = 20

    /// Computes the 20-byte HMAC-SHA-1 of `message` under `key`.
    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        key.withUnsafeBytes { key in
            message.withUnsafeBytes { message in
                [UInt8](unsafeUninitializedCapacity: codeLength) { code, initializedCount in
                    authenticate(message: message, key: key, into: UnsafeMutableRawBufferPointer(code))
                    initializedCount = codeLength
                }
            }
        }
    }

    /// Writes the HMAC-SHA-1 of `message` under `key` into the first 20 bytes of `code`.
    ///
    /// Allocates nothing (the SHA-1 states live on the stack), so it may run on the media
    /// thread; `code` must not overlap `message`.
    public static func authenticate(
        message: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer,
        into code: UnsafeMutableRawBufferPointer
    ) {
        precondition(code.count >= codeLength, "HMAC-SHA-1 needs 20 bytes of output")
        guard
            pkr_hmac_sha1(
                key.baseAddress?.assumingMemoryBound(to: UInt8.self), key.count,
                message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count,
                code.baseAddress?.assumingMemoryBound(to: UInt8.self)) == 1
        else {
            fatalError("OpenSSL HMAC-SHA-1 failed")
        }
    }

    /// Whether `expectedCode` is the HMAC-SHA-1 of `message` under `key`.
    ///
    /// The code is computed into fixed-size stack storage and compared in time that does not
    /// depend on where the codes differ, so a forger cannot learn the code byte by byte.
    /// A `expectedCode` of any length other than 20 is simply wrong.
    public static func isValid(
        _ expectedCode: UnsafeRawBufferPointer,
        message: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer
    ) -> Bool {
        guard expectedCode.count == codeLength, let expected = expectedCode.baseAddress else { return false }
        // 20 bytes as a tuple of integers: stack storage, never the heap.
        var computed: (UInt64, UInt64, UInt32) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &computed) { computed in
            authenticate(message: message, key: key, into: computed)
            return pkr_constant_time_equal(
                computed.baseAddress?.assumingMemoryBound(to: UInt8.self),
                expected.assumingMemoryBound(to: UInt8.self),
                codeLength) == 1
        }
    }
}
