/// SRTP keying material from a completed DTLS-SRTP handshake (RFC 5764 section 4.2),
/// already split by direction.
public struct DTLSSRTPKeys: Sendable {
    /// The negotiated protection profile.
    public let profile: SRTPProfile
    /// Master key followed by master salt for packets this side sends.
    public let localKeyingMaterial: [UInt8]
    /// Master key followed by master salt for packets the peer sends.
    public let remoteKeyingMaterial: [UInt8]

    /// Keys for one side.
    public init(profile: SRTPProfile, localKeyingMaterial: [UInt8], remoteKeyingMaterial: [UInt8]) {
        self.profile = profile
        self.localKeyingMaterial = localKeyingMaterial
        self.remoteKeyingMaterial = remoteKeyingMaterial
    }

    /// Splits the exporter output `client key | server key | client salt | server salt` into
    /// this side's keys, or returns `nil` when it does not have the profile's length.
    init?(profile: SRTPProfile, exportedMaterial material: [UInt8], role: DTLSRole) {
        let keyLength = profile.masterKeyLength
        let saltLength = profile.masterSaltLength
        guard material.count == 2 * (keyLength + saltLength) else { return nil }
        let clientKey = material[0..<keyLength]
        let serverKey = material[keyLength..<2 * keyLength]
        let clientSalt = material[2 * keyLength..<2 * keyLength + saltLength]
        let serverSalt = material[(2 * keyLength + saltLength)...]
        let client = Array(clientKey + clientSalt)
        let server = Array(serverKey + serverSalt)
        switch role {
        case .client:
            self.init(profile: profile, localKeyingMaterial: client, remoteKeyingMaterial: server)
        case .server:
            self.init(profile: profile, localKeyingMaterial: server, remoteKeyingMaterial: client)
        }
    }
}
