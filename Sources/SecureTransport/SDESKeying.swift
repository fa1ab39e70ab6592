/// Keying material for SDP Security Descriptions (RFC 4568 `a=crypto` lines).
public enum SDESKeying {
    /// Generates fresh random keying material (master key followed by master salt) for `profile`.
    public static func generateKeyingMaterial(for profile: SRTPProfile) -> [UInt8] {
        SecureRandom.bytes(profile.keyingMaterialLength)
    }

    /// Whether `material` can key a session of `profile`: it has exactly the profile's
    /// length and is not all zero bytes (an all-zero key is a sign of a missing key, never
    /// of a random one).
    public static func validate(_ material: [UInt8], for profile: SRTPProfile) -> Bool {
        guard material.count == profile.keyingMaterialLength else { return false }
        return material.contains { $0 != 0 }
    }
}
