/// Parameters of `createTransport`.
public struct CreateTransportParams: Sendable, Codable, Hashable {
    /// `AEAD_AES_128_GCM` (default), `AES_CM_128_HMAC_SHA1_80`, or `none` for plain RTP where the
    /// relay's configuration allows it.
    public var srtpProfile: String?
    public init(srtpProfile: String? = nil) { self.srtpProfile = srtpProfile }
}
