import Auth
import Foundation
import Logging
import MediaPlane
import PKRelayServer
import Testing

/// The `webhooks:` section and the `PKRELAY_*` environment overrides.
struct WebhookConfigurationTests {
    static let secret = "0123456789abcdef0123456789abcdef"

    @Test func webhookSectionIsRead() throws {
        let configuration = try RelayConfiguration.load(
            yaml: """
                webhooks:
                  urls: [http://127.0.0.1:9000/hook, https://app.example/pkrelay]
                  secret: "\(Self.secret)"
                  retryForSeconds: 30
                  queueSize: 50
                """)
        #expect(configuration.webhooks.urls == ["http://127.0.0.1:9000/hook", "https://app.example/pkrelay"])
        #expect(configuration.webhooks.retryForSeconds == 30)
        #expect(configuration.webhooks.queueSize == 50)
        #expect(configuration.effectiveSettings.contains("secret: (redacted)"))
        #expect(!configuration.effectiveSettings.contains(Self.secret))
    }

    @Test(arguments: [
        ("webhooks: {urls: [http://h/x]}", "webhooks.secret"),
        ("webhooks: {urls: [ftp://h/x], secret: 0123456789abcdef}", "webhooks.urls[0]"),
        ("webhooks: {queueSize: 0}", "webhooks.queueSize"),
        ("webhooks: {initialBackoffMs: 500, maxBackoffMs: 100}", "webhooks.maxBackoffMs"),
        ("webhooks: {url: x}", "webhooks.url"),
        ("admin: {requestsPerSecond: 0}", "admin.requestsPerSecond"),
    ])
    func badWebhookSettingsAreRefused(_ yaml: String, _ key: String) {
        do {
            _ = try RelayConfiguration.load(yaml: yaml)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.key == key)
        }
    }

    @Test func variableNamesFollowTheKeys() {
        #expect(RelayConfiguration.environmentVariable(for: "control.port") == "PKRELAY_CONTROL_PORT")
        #expect(RelayConfiguration.environmentVariable(for: "media.portRangeStart") == "PKRELAY_MEDIA_PORT_RANGE_START")
        #expect(RelayConfiguration.environmentVariable(for: "webhooks.urls") == "PKRELAY_WEBHOOKS_URLS")
        #expect(RelayConfiguration.environmentVariable(for: "media.allowPlainRTP") == "PKRELAY_MEDIA_ALLOW_PLAIN_RTP")
    }

    @Test func environmentOverridesTheFile() throws {
        let configuration = try RelayConfiguration.load(
            yaml: "control: {port: 7000}\nlogging: {level: debug}",
            environment: [
                "PKRELAY_CONTROL_PORT": "9100",
                "PKRELAY_MEDIA_PORT_RANGE_START": "50000",
                "PKRELAY_MEDIA_PORT_RANGE_END": "50100",
                "PKRELAY_WEBHOOKS_URLS": "[http://10.0.0.5:8080/pkrelay]",
                "PKRELAY_WEBHOOKS_SECRET": Self.secret,
                "PKRELAY_AUTH_KEYS": "[{id: main, secret: \"\(Self.secret)\"}]",
                "HOME": "/root",
            ])
        #expect(configuration.controlPort == 9100)
        #expect(configuration.logLevel == .debug)
        #expect(configuration.media.portRange == 50000...50100)
        #expect(configuration.webhooks.urls == ["http://10.0.0.5:8080/pkrelay"])
        #expect(configuration.mintingKey.id == "main")
        let overrides = RelayConfiguration.environmentOverrides(in: ["PKRELAY_CONTROL_PORT": "1", "PATH": "/bin"])
        #expect(overrides.map(\.key) == ["control.port"])
    }

    @Test func badEnvironmentIsRefusedWithTheVariable() {
        for (environment, key) in [
            (["PKRELAY_CONTROL_PROT": "1"], "PKRELAY_CONTROL_PROT"),
            (["PKRELAY_CONTROL_PORT": "seven"], "control.port"),
            (["PKRELAY_WEBHOOKS_QUEUE_SIZE": "-1"], "webhooks.queueSize"),
        ] {
            do {
                _ = try RelayConfiguration.load(yaml: "", environment: environment)
                Issue.record("accepted: \(environment)")
            } catch {
                #expect(error.key == key)
            }
        }
    }
}
