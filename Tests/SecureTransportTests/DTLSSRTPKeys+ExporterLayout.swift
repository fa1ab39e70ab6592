import SecureTransport

extension DTLSSRTPKeys {
    /// The DTLS-SRTP exporter output these keys were cut from, rebuilt in RFC 5764's layout
    /// (client key, server key, client salt, server salt), to compare with what another
    /// implementation exported.
    func exporterLayout(role: DTLSRole) -> [UInt8] {
        let (client, server) =
            role == .client
            ? (localKeyingMaterial, remoteKeyingMaterial)
            : (remoteKeyingMaterial, localKeyingMaterial)
        let keyLength = profile.masterKeyLength
        return Array(client[..<keyLength] + server[..<keyLength] + client[keyLength...] + server[keyLength...])
    }
}
