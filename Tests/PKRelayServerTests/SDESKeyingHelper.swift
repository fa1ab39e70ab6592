import Protocol
import SecureTransport

/// Random client keys for transports whose media a test never sends.
enum SDESKeyingHelper {
    static func randomKey(for transport: CreateTransportResult) -> String? {
        guard let name = transport.srtp?.profile, let profile = SRTPProfile(rawValue: name) else { return nil }
        return SDESKeying.encodeBase64(SDESKeying.generateKeyingMaterial(for: profile))
    }
}
