/// Finds the WebRTC transport a STUN check is for without building a string: the local ufrag
/// (the part of USERNAME before the colon) hashed with 64-bit FNV-1a. A collision only makes the
/// check fail its integrity test against the wrong transport, so no cryptographic hash is needed.
enum ICEUsernameKey {
    static func key(ofUfrag bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The key of the local ufrag in a USERNAME attribute value ("local:remote").
    static func key(ofUsername username: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in username {
            if byte == UInt8(ascii: ":") { break }
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
