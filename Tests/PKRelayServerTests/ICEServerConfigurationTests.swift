import PKRelayServer
import Protocol
import Testing

/// The `ice:` section: the STUN and TURN servers named to WebRTC clients, and the TURN REST
/// credentials minted for coturn's `use-auth-secret`.
struct ICEServerConfigurationTests {
    static let secret = "coturn-shared-secret"

    @Test func serversAreReadAndSecretsRedacted() throws {
        let configuration = try RelayConfiguration.load(
            yaml: """
                ice:
                  servers:
                    - urls: ["turn:turn.example.com:3478?transport=udp", "turns:turn.example.com:443?transport=tcp"]
                      secret: "\(Self.secret)"
                    - urls: ["stun:stun.example.com:3478"]
                    - urls: ["turn:other.example.com"]
                      username: fixed
                      credential: fixed-password
                  credentialSeconds: 3600
                """)
        #expect(configuration.iceServers.count == 3)
        #expect(configuration.iceServers[0].secret == Self.secret)
        #expect(configuration.iceServers[2].username == "fixed" && configuration.iceServers[2].credential == "fixed-password")
        #expect(configuration.iceCredentialSeconds == 3600)
        #expect(!configuration.effectiveSettings.contains(Self.secret))
        #expect(!configuration.effectiveSettings.contains("fixed-password"))
        #expect(configuration.effectiveSettings.contains("turn:turn.example.com:3478?transport=udp"))
    }

    @Test func environmentSetsTheServers() throws {
        let configuration = try RelayConfiguration.load(
            yaml: "",
            environment: [
                "PKRELAY_ICE_SERVERS": "[{urls: [\"turn:127.0.0.1:3478?transport=tcp\"], secret: \"\(Self.secret)\"}]",
                "PKRELAY_ICE_CREDENTIAL_SECONDS": "600",
            ])
        #expect(configuration.iceServers == [ICEServerConfiguration(urls: ["turn:127.0.0.1:3478?transport=tcp"], secret: Self.secret)])
        #expect(configuration.iceCredentialSeconds == 600)
    }

    @Test(arguments: [
        ("ice: {servers: [{urls: []}]}", "ice.servers[0].urls"),
        ("ice: {servers: [{urls: [\"http://turn.example.com\"]}]}", "ice.servers[0].urls[0]"),
        ("ice: {servers: [{urls: [\"turn:turn.example.com\"]}]}", "ice.servers[0]"),
        ("ice: {servers: [{urls: [\"turn:t\"], username: u}]}", "ice.servers[0].credential"),
        ("ice: {servers: [{urls: [\"turn:t\"], secret: s, username: u, credential: c}]}", "ice.servers[0].secret"),
        ("ice: {servers: [{urls: [\"stun:s\"], secret: s}]}", "ice.servers[0].secret"),
        ("ice: {servers: [{urls: [\"turn:t\"], secret: \"\"}]}", "ice.servers[0].secret"),
        ("ice: {servers: [{urls: [\"turn:t\"], secret: s, port: 3}]}", "ice.servers[0].port"),
        ("ice: {credentialSeconds: 10}", "ice.credentialSeconds"),
        ("ice: {servers: x}", "ice.servers"),
    ])
    func badServersAreRefused(_ yaml: String, _ key: String) {
        do {
            _ = try RelayConfiguration.load(yaml: yaml)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.key == key, "\(error)")
        }
    }

    @Test func mintedCredentialsAreWhatCoturnComputes() {
        // The expected password: base64(HMAC-SHA-1(secret, "1700086400:anchor-a")), as coturn's
        // use-auth-secret computes it (checked with Python's hmac module).
        let minted = TURNRESTCredentials.mint(secret: Self.secret, id: "anchor-a", nowSeconds: 1_700_000_000, validSeconds: 86400)
        #expect(minted.username == "1700086400:anchor-a")
        #expect(minted.credential == "OKIdTBLJ6Bxh6k4Dk0r06yt1Xbo=")
    }

    @Test func clientsGetMintedOrFixedCredentials() {
        let servers = TURNRESTCredentials.servers(
            [
                ICEServerConfiguration(urls: ["turn:a"], secret: Self.secret),
                ICEServerConfiguration(urls: ["stun:b"]),
                ICEServerConfiguration(urls: ["turn:c"], username: "u", credential: "p"),
            ], id: "anchor-a", nowSeconds: 1_700_000_000, validSeconds: 86400)
        #expect(
            servers == [
                ICEServer(urls: ["turn:a"], username: "1700086400:anchor-a", credential: "OKIdTBLJ6Bxh6k4Dk0r06yt1Xbo="),
                ICEServer(urls: ["stun:b"]),
                ICEServer(urls: ["turn:c"], username: "u", credential: "p"),
            ])
    }
}
