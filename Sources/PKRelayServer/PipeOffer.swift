/// One node's end of the media pipe to another: where it receives, and the SRTP
/// (AEAD_AES_128_GCM) keying material it protects what it sends with, base64.
struct PipeOffer: Sendable, Codable, Hashable {
    var ip: String
    var port: Int
    var key: String
}
