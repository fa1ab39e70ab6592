import Foundation
import SecureTransport
import Testing

@Suite("SRTPProfile sizes and names")
struct SRTPProfileTests {
    static let sizes: [(SRTPProfile, name: String, key: Int, salt: Int, material: Int, rtp: Int, rtcp: Int)] = [
        (.aeadAES128GCM, "AEAD_AES_128_GCM", 16, 12, 28, 16, 20),
        (.aesCM128HMACSHA1_80, "AES_CM_128_HMAC_SHA1_80", 16, 14, 30, 10, 14),
    ]

    @Test("Lengths match RFC 3711, RFC 4568 and RFC 7714", arguments: sizes)
    func lengths(
        profile: SRTPProfile, name: String, key: Int, salt: Int, material: Int, rtp: Int, rtcp: Int
    ) throws {
        #expect(profile.rawValue == name)
        #expect(SRTPProfile(rawValue: name) == profile)
        #expect(profile.masterKeyLength == key)
        #expect(profile.masterSaltLength == salt)
        #expect(profile.keyingMaterialLength == material)
        #expect(profile.rtpTrailerLength == rtp)
        #expect(profile.rtcpTrailerLength == rtcp)
        #expect(profile.maximumTrailerLength == max(rtp, rtcp))
        let encoded = try JSONEncoder().encode(profile)
        #expect(String(decoding: encoded, as: UTF8.self) == "\"\(name)\"")
        #expect(try JSONDecoder().decode(SRTPProfile.self, from: encoded) == profile)
    }
}
