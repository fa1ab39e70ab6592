import SecureTransport

extension ICECredentials {
    /// The 64 ice-chars; a random byte's low 6 bits pick one with equal chance.
    static let iceChars: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Fresh random credentials from the secure generator, for a new transport or an ICE
    /// restart.
    ///
    /// The defaults give a 48-bit ufrag, which only has to be unlikely to collide, and a
    /// 144-bit password, which has to resist guessing.
    public static func random(ufragLength: Int = 8, passwordLength: Int = 24) -> ICECredentials {
        precondition((minimumUfragLength...maximumLength).contains(ufragLength), "ufrag length out of range")
        precondition((minimumPasswordLength...maximumLength).contains(passwordLength), "password length out of range")
        return ICECredentials(ufrag: randomICEString(length: ufragLength), password: randomICEString(length: passwordLength))
    }

    private static func randomICEString(length: Int) -> String {
        let characters = SecureRandom.bytes(length).map { iceChars[Int($0 & 0x3F)] }
        return String(decoding: characters, as: UTF8.self)
    }
}
