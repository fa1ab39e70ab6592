/// An SRTP protection profile ("crypto suite") this relay can negotiate.
///
/// The raw values are the suite names used in SDP `a=crypto` lines (RFC 4568, RFC 7714).
public enum SRTPProfile: String, Sendable, CaseIterable, Codable {
    /// AES-128 in Galois/Counter Mode with a 16-byte tag (RFC 7714).
    case aeadAES128GCM = "AEAD_AES_128_GCM"
    /// AES-128 in counter mode with an 80-bit HMAC-SHA1 tag (RFC 3711).
    case aesCM128HMACSHA1_80 = "AES_CM_128_HMAC_SHA1_80"

    /// Length in bytes of the master key.
    public var masterKeyLength: Int { 16 }

    /// Length in bytes of the master salt: 96 bits for GCM, 112 bits for AES-CM.
    public var masterSaltLength: Int {
        switch self {
        case .aeadAES128GCM: 12
        case .aesCM128HMACSHA1_80: 14
        }
    }

    /// Length in bytes of the keying material: master key followed by master salt.
    public var keyingMaterialLength: Int { masterKeyLength + masterSaltLength }

    /// Bytes that protecting an RTP packet appends: the authentication tag.
    public var rtpTrailerLength: Int {
        switch self {
        case .aeadAES128GCM: 16
        case .aesCM128HMACSHA1_80: 10
        }
    }

    /// Bytes that protecting an RTCP packet appends: the tag plus the 4-byte E flag and SRTCP index.
    public var rtcpTrailerLength: Int { rtpTrailerLength + 4 }

    /// The most bytes protecting any packet (RTP or RTCP) can append; reserve this much
    /// after every packet that is going to be protected.
    public var maximumTrailerLength: Int { max(rtpTrailerLength, rtcpTrailerLength) }
}
