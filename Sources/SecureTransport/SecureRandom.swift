import COpenSSLShims

/// Cryptographically secure random bytes from OpenSSL's generator.
public enum SecureRandom {
    /// Returns `count` random bytes (none when `count` is zero or negative).
    ///
    /// Stops the process if OpenSSL cannot produce randomness: carrying on would hand out
    /// guessable keys and tokens, which is worse than not running.
    public static func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            guard pkr_rand_bytes(buffer.baseAddress, count) == 1 else {
                fatalError("OpenSSL's random number generator failed")
            }
            initializedCount = count
        }
    }
}
