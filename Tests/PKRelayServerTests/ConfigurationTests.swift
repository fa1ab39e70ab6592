import Auth
import Foundation
import MediaPlane
import PKRelayServer
import RoomEngine
import SecureTransport
import Testing

/// Configuration loading: the commented sample is valid and equals the built-in defaults, and
/// every kind of bad value is refused with its key and reason.
struct ConfigurationTests {
    static var sampleURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Config/pkrelay.yaml")
    }

    @Test func sampleFileIsValidAndMatchesDefaults() throws {
        let sample = try RelayConfiguration.load(path: Self.sampleURL.path)
        #expect(sample.effectiveSettings == RelayConfiguration().effectiveSettings)
    }

    @Test func emptyDocumentGivesDefaults() throws {
        let configuration = try RelayConfiguration.load(yaml: "")
        #expect(configuration.controlPort == 7700)
        #expect(configuration.adminPort == 7710)
        #expect(configuration.media.portRange == 40000...40999)
        #expect(configuration.usesDevelopmentKey)
        #expect(configuration.srtpProfiles == [.aeadAES128GCM, .aesCM128HMACSHA1_80])
    }

    @Test func clusterSettingsAreRead() throws {
        let configuration = try RelayConfiguration.load(
            yaml: """
                cluster: {nodeId: relay-2, databaseURL: 'postgres://pk:s%40cret@10.0.0.9:5433/pkrelay',
                  publicControlURL: 'wss://relay-2.example.com/rtc', capacity: 500}
                """, environment: ["PKRELAY_CLUSTER_LEASE_SECONDS": "30", "PKRELAY_CLUSTER_RENEW_SECONDS": "5", "PKRELAY_CLUSTER_EDGES": "true"])
        #expect(configuration.cluster.isEnabled && configuration.cluster.nodeId == "relay-2")
        #expect(configuration.cluster.edges && !RelayConfiguration().cluster.edges)
        #expect(configuration.effectiveSettings.contains("edges: true"))
        #expect(configuration.cluster.capacity == 500 && configuration.cluster.leaseSeconds == 30 && configuration.cluster.renewSeconds == 5)
        #expect(configuration.effectiveSettings.contains("postgres://pk:***@10.0.0.9:5433/pkrelay"), "the password stays out of the logs")
        #expect(!configuration.effectiveSettings.contains("s@cret"))
        #expect(!RelayConfiguration().cluster.isEnabled)
    }

    @Test func segmentationOffloadIsReadInEveryYAMLSpelling() throws {
        #expect(try RelayConfiguration.load(yaml: "").media.segmentationOffload == .auto)
        for (text, mode) in [("auto", UDPOffload.auto), ("on", .on), ("off", .off), ("'on'", .on), ("true", .on), ("false", .off), ("no", .off)] {
            #expect(try RelayConfiguration.load(yaml: "media: {gso: \(text)}").media.segmentationOffload == mode, "\(text)")
        }
        #expect(try RelayConfiguration.load(yaml: "", environment: ["PKRELAY_MEDIA_GSO": "off"]).media.segmentationOffload == .off)
        #expect(try RelayConfiguration.load(yaml: "media: {gso: off}").effectiveSettings.contains("gso: off"))
        #expect(try RelayConfiguration.load(yaml: "media: {gro: off}", environment: ["PKRELAY_MEDIA_GRO": "on"]).media.receiveOffload == .on)
        #expect(try RelayConfiguration.load(yaml: "").media.receiveOffload == .auto)
    }

    @Test func segmentPaddingIsOffUnlessSet() throws {
        #expect(try RelayConfiguration.load(yaml: "").media.segmentPaddingBytes == 0)
        #expect(try RelayConfiguration.load(yaml: "media: {gsoPadding: 32}").media.segmentPaddingBytes == 32)
        #expect(try RelayConfiguration.load(yaml: "", environment: ["PKRELAY_MEDIA_GSO_PADDING": "255"]).media.segmentPaddingBytes == 255)
        #expect(try RelayConfiguration.load(yaml: "media: {gsoPadding: 7}").effectiveSettings.contains("gsoPadding: 7"))
    }

    @Test func sendOnlySocketsAreOnUnlessTurnedOff() throws {
        #expect(try RelayConfiguration.load(yaml: "").media.sendOnlySockets)
        #expect(try !RelayConfiguration.load(yaml: "media: {sendOnlySockets: false}").media.sendOnlySockets)
        #expect(try !RelayConfiguration.load(yaml: "", environment: ["PKRELAY_MEDIA_SEND_ONLY_SOCKETS": "false"]).media.sendOnlySockets)
        #expect(try RelayConfiguration.load(yaml: "media: {sendOnlySockets: false}").effectiveSettings.contains("sendOnlySockets: false"))
        let twins = try RelayConfiguration.load(yaml: "")
        let single = try RelayConfiguration.load(yaml: "media: {sendOnlySockets: false}")
        // A twin and a connected reader for every media port, a twin for every shard's WebRTC port.
        #expect(twins.fileDescriptorsNeeded - single.fileDescriptorsNeeded == 2 * twins.media.portRange.count + twins.media.threads)
        let unconnected = try RelayConfiguration.load(yaml: "media: {connectedSockets: false}")
        #expect(twins.fileDescriptorsNeeded - unconnected.fileDescriptorsNeeded == twins.media.portRange.count)
    }

    @Test func webRTCTCPIsOnUnlessTurnedOffAndKeepsClearOfTheListeners() throws {
        let defaults = try RelayConfiguration.load(yaml: "")
        #expect(defaults.media.webRTCTCP && defaults.media.webRTCTCPConnections == 1024)
        #expect(defaults.effectiveSettings.contains("webrtcTCP: true") && defaults.effectiveSettings.contains("webrtcTCPConnections: 1024"))
        #expect(defaults.media.webRTCTCPConnectionsPerAddress == 256)
        let off = try RelayConfiguration.load(
            yaml: "",
            environment: [
                "PKRELAY_MEDIA_WEBRTC_TCP": "false", "PKRELAY_MEDIA_WEBRTC_TCP_CONNECTIONS": "8", "PKRELAY_MEDIA_WEBRTC_TCP_CONNECTIONS_PER_ADDRESS": "4",
            ])
        #expect(!off.media.webRTCTCP && off.media.webRTCTCPConnections == 8 && off.media.webRTCTCPConnectionsPerAddress == 4)
        // A listener for each thread and a descriptor for each connection it may keep.
        #expect(defaults.fileDescriptorsNeeded - off.fileDescriptorsNeeded == defaults.media.threads * 1025)
        // With ICE-TCP off, TCP listeners may share the WebRTC ports' numbers.
        #expect(try RelayConfiguration.load(yaml: "control: {port: 7702}\nmedia: {webrtcTCP: false, webrtcPort: 7702, threads: 2}").controlPort == 7702)
    }

    @Test func ipv6IsOffUnlessABindAddressIsGiven() throws {
        let defaults = try RelayConfiguration.load(yaml: "")
        #expect(defaults.media.bindAddress6 == nil && defaults.media.announcedAddress6 == nil)
        #expect(defaults.effectiveSettings.contains("bindAddress6: null  # IPv4 only"))
        let loopback = try RelayConfiguration.load(yaml: "media:\n  bindAddress6: ::1")
        #expect(loopback.media.bindAddress6 == "::1" && loopback.effectiveSettings.contains("announcedAddress6: \"::1\""))
        // Each thread's IPv6 socket and ICE-TCP listener.
        #expect(loopback.fileDescriptorsNeeded - defaults.fileDescriptorsNeeded == defaults.media.threads * 2)
        let everywhere = try RelayConfiguration.load(
            yaml: "", environment: ["PKRELAY_MEDIA_BIND_ADDRESS6": "'::'", "PKRELAY_MEDIA_ANNOUNCED_ADDRESS6": "'2001:db8::7'"])
        #expect(everywhere.media.bindAddress6 == "::" && everywhere.media.announcedAddress6 == "2001:db8::7")
        // Unquoted, as an operator would write the variables.
        let unquoted = try RelayConfiguration.load(
            yaml: "", environment: ["PKRELAY_MEDIA_BIND_ADDRESS6": "::1", "PKRELAY_MEDIA_ANNOUNCED_ADDRESS6": "2001:db8::7"])
        #expect(unquoted.media.bindAddress6 == "::1" && unquoted.media.announcedAddress6 == "2001:db8::7")
    }

    @Test func webRTCPortsAreOnePerMediaThread() throws {
        let four = try RelayConfiguration.load(yaml: "media: {webrtcPort: 7702, threads: 4}")
        #expect(four.webRTCPortRange == 7702...7705)
        #expect(four.effectiveSettings.contains("webrtcPort: 7702  # WebRTC ports 7702-7705, one per media thread"))
        // The range may end right below the SRTP range, or at the last port.
        #expect(try RelayConfiguration.load(yaml: "media: {webrtcPort: 39996, threads: 4}").webRTCPortRange == 39996...39999)
        #expect(try RelayConfiguration.load(yaml: "media: {webrtcPort: 65534, threads: 2}").webRTCPortRange == 65534...65535)
        // The environment's thread count counts as the file's would.
        #expect(throws: ConfigurationError.self) {
            try RelayConfiguration.load(yaml: "media: {webrtcPort: 39999}", environment: ["PKRELAY_MEDIA_THREADS": "2"])
        }
        #expect(try RelayConfiguration.load(yaml: "media: {webrtcPort: 0, threads: 8}").webRTCPortRange == nil)
        #expect(try RelayConfiguration.load(yaml: "media: {webrtcEnabled: false, webrtcPort: 65535, threads: 8}").webRTCPortRange == nil)
    }

    @Test func aRoomSpreadsOverShardsPastItsThreshold() throws {
        #expect(try RelayConfiguration.load(yaml: "").media.spreadRoomAfter == 300)
        #expect(try RelayConfiguration.load(yaml: "media: {spreadRoomAfter: 0}").media.spreadRoomAfter == 0)
        #expect(try RelayConfiguration.load(yaml: "", environment: ["PKRELAY_MEDIA_SPREAD_ROOM_AFTER": "50"]).media.spreadRoomAfter == 50)
        #expect(try RelayConfiguration.load(yaml: "media: {spreadRoomAfter: 40}").effectiveSettings.contains("spreadRoomAfter: 40"))
    }

    @Test func connectedSocketsAreOnUnlessTurnedOff() throws {
        #expect(try RelayConfiguration.load(yaml: "").media.connectedSockets)
        #expect(try !RelayConfiguration.load(yaml: "media: {connectedSockets: false}").media.connectedSockets)
        #expect(try !RelayConfiguration.load(yaml: "", environment: ["PKRELAY_MEDIA_CONNECTED_SOCKETS": "false"]).media.connectedSockets)
        #expect(try RelayConfiguration.load(yaml: "").effectiveSettings.contains("connectedSockets: true"))
        #expect(try RelayConfiguration.load(yaml: "media: {connectedSockets: false}").effectiveSettings.contains("connectedSockets: false"))
    }

    @Test func congestionFeedbackIsOnUnlessTurnedOff() throws {
        #expect(try RelayConfiguration.load(yaml: "").congestionFeedback)
        #expect(try !RelayConfiguration.load(yaml: "media: {congestionFeedback: false}").congestionFeedback)
        #expect(try !RelayConfiguration.load(yaml: "", environment: ["PKRELAY_MEDIA_CONGESTION_FEEDBACK": "false"]).congestionFeedback)
        #expect(try RelayConfiguration.load(yaml: "media: {congestionFeedback: false}").effectiveSettings.contains("congestionFeedback: false"))
    }

    @Test func overridesAreRead() throws {
        let configuration = try RelayConfiguration.load(
            yaml: """
                control: {port: 9000, maxMessageBytes: 2048}
                media: {portRangeStart: 50000, portRangeEnd: 50010, allowPlainRTP: true, srtpProfiles: [AES_CM_128_HMAC_SHA1_80]}
                auth:
                  keys:
                    - {id: main, secret: "0123456789abcdef0123456789abcdef"}
                logging: {level: debug, format: json}
                rooms: {maxForwardTargetsPerUser: 2, maxLinksPerUser: 1, autoRejectBusyInvitations: false}
                """)
        #expect(configuration.rooms.maximumForwardTargetsPerUser == 2)
        #expect(configuration.rooms.maximumLinksPerUser == 1)
        #expect(configuration.rooms.autoRejectBusyInvitations == false)
        #expect(configuration.controlPort == 9000)
        #expect(configuration.maxMessageBytes == 2048)
        #expect(configuration.media.portRange == 50000...50010)
        #expect(configuration.allowPlainRTP)
        #expect(configuration.srtpProfiles == [.aesCM128HMACSHA1_80])
        #expect(!configuration.usesDevelopmentKey)
        #expect(configuration.mintingKey.id == "main")
        #expect(configuration.logFormat == "json")
    }

    struct BadCase: Sendable, CustomStringConvertible {
        let yaml: String
        let key: String
        let reason: String
        var description: String { key.isEmpty ? reason : key }
    }

    static let badCases: [BadCase] = [
        BadCase(yaml: "cluster: {databaseURL: 'postgres://u@db/pk'}", key: "cluster.nodeId", reason: "is required"),
        BadCase(yaml: "cluster: {edges: true}", key: "cluster.nodeId", reason: "is required"),
        BadCase(
            yaml: "cluster: {nodeId: a, databaseURL: 'postgres://u@db/pk', edgeAfterAudience: 100}", key: "cluster.edgeAfterAudience", reason: "cluster.edges"),
        BadCase(
            yaml: "cluster: {nodeId: a, databaseURL: 'postgres://u@db/pk', edges: true, edgeAfterAudience: -1}", key: "cluster.edgeAfterAudience",
            reason: "between 0 and"),
        BadCase(yaml: "cluster: {nodeId: a, databaseURL: 'postgres://u@db/pk', edges: often}", key: "cluster.edges", reason: "true or false"),
        BadCase(yaml: "cluster: {nodeId: 'bad node'}", key: "cluster.nodeId", reason: "letters, digits"),
        BadCase(yaml: "cluster: {nodeId: a}", key: "cluster.databaseURL", reason: "is required"),
        BadCase(yaml: "cluster: {nodeId: a, databaseURL: 'mysql://u@db/pk'}", key: "cluster.databaseURL", reason: "postgres://"),
        BadCase(yaml: "cluster: {nodeId: a, databaseURL: 'postgres://u@db:99999/pk'}", key: "cluster.databaseURL", reason: "port"),
        BadCase(yaml: "cluster: {nodeId: a, databaseURL: 'postgres://u@db/pk?sslmode=prefer'}", key: "cluster.databaseURL", reason: "sslmode"),
        BadCase(
            yaml: "cluster: {nodeId: a, databaseURL: 'postgres://u@db/pk', publicControlURL: "
                + "'http://x/rtc'}", key: "cluster.publicControlURL", reason: "ws://"),
        BadCase(
            yaml: "cluster: {nodeId: a, databaseURL: 'postgres://u@db/pk', leaseSeconds: 6, renewSeconds: 3}", key: "cluster.renewSeconds", reason: "a third"),
        BadCase(yaml: "cluster: {nodeId: a, databaseURL: 'postgres://u@db/pk', leaseSeconds: 1}", key: "cluster.leaseSeconds", reason: "between 3 and 300"),
        BadCase(yaml: "contrl: {}", key: "contrl", reason: "unknown key"),
        BadCase(yaml: "media: {protRangeStart: 1}", key: "media.protRangeStart", reason: "unknown key"),
        BadCase(yaml: "control: {port: 70000}", key: "control.port", reason: "between 1 and 65535"),
        BadCase(yaml: "control: {port: seven}", key: "control.port", reason: "whole number"),
        BadCase(yaml: "control: {port: true}", key: "control.port", reason: "whole number"),
        BadCase(yaml: "media: {portRangeStart: 41000, portRangeEnd: 40000}", key: "media.portRangeEnd", reason: "must not be below"),
        BadCase(yaml: "media: {bindAddress: localhost}", key: "media.bindAddress", reason: "IPv4"),
        BadCase(yaml: "media: {allowPlainRTP: maybe}", key: "media.allowPlainRTP", reason: "true or false"),
        BadCase(yaml: "media: {srtpProfiles: [AES_256]}", key: "media.srtpProfiles[0]", reason: "must be one of"),
        BadCase(yaml: "media: {gso: always}", key: "media.gso", reason: "must be one of auto, on, off, got 'always'"),
        BadCase(yaml: "media: {gso: 1}", key: "media.gso", reason: "must be one of auto, on, off"),
        BadCase(yaml: "media: {gsoPadding: 256}", key: "media.gsoPadding", reason: "between 0 and 255"),
        BadCase(yaml: "media: {threads: 65}", key: "media.threads", reason: "between 1 and 64"),
        BadCase(yaml: "media: {threads: 0}", key: "media.threads", reason: "between 1 and 64"),
        BadCase(yaml: "media: {spreadRoomAfter: -1}", key: "media.spreadRoomAfter", reason: "between 0 and 1000000"),
        BadCase(yaml: "media: {spreadRoomAfter: many}", key: "media.spreadRoomAfter", reason: "must be a whole number"),
        BadCase(yaml: "media: {gsoPadding: -1}", key: "media.gsoPadding", reason: "between 0 and 255"),
        BadCase(yaml: "media: {gro: sometimes}", key: "media.gro", reason: "must be one of auto, on, off, got 'sometimes'"),
        BadCase(yaml: "media: {sendOnlySockets: auto}", key: "media.sendOnlySockets", reason: "true or false"),
        BadCase(yaml: "media: {connectedSockets: 1}", key: "media.connectedSockets", reason: "true or false"),
        // One WebRTC port per media thread: the range must fit below 65536 and clear the SRTP range.
        BadCase(yaml: "media: {webrtcPort: 65535, threads: 2}", key: "media.webrtcPort", reason: "2 threads need 65535-65536, past 65535"),
        BadCase(
            yaml: "media: {webrtcPort: 39998, threads: 4}", key: "media.webrtcPort",
            reason: "the WebRTC ports 39998-40001 (one per media thread, media.threads 4) must lie outside"),
        BadCase(
            yaml: "media: {webrtcPort: 41000, threads: 1, portRangeStart: 40000, portRangeEnd: 41000}", key: "media.webrtcPort",
            reason: "must lie outside media.portRangeStart-portRangeEnd (40000-41000)"),
        // ICE-TCP listens on the WebRTC ports' numbers.
        BadCase(
            yaml: "control: {port: 7703}\nmedia: {webrtcPort: 7702, threads: 2}", key: "control.port",
            reason: "7703 is one of the WebRTC ports 7702-7703, on which ICE-TCP listens"),
        BadCase(yaml: "admin: {port: 7702}\nmedia: {webrtcPort: 7702, threads: 1}", key: "admin.port", reason: "or set media.webrtcTCP: false"),
        BadCase(yaml: "media: {webrtcTCPConnections: 0}", key: "media.webrtcTCPConnections", reason: "between 1 and 32767"),
        BadCase(yaml: "media: {webrtcTCPConnections: 40000}", key: "media.webrtcTCPConnections", reason: "between 1 and 32767"),
        BadCase(yaml: "media: {bindAddress6: '127.0.0.1'}", key: "media.bindAddress6", reason: "must be an IPv6 address"),
        BadCase(yaml: "media: {bindAddress6: '[::1]'}", key: "media.bindAddress6", reason: "(no brackets)"),
        BadCase(yaml: "media: {bindAddress6: '::'}", key: "media.announcedAddress6", reason: "must be set when media.bindAddress6 is '::'"),
        BadCase(yaml: "media: {announcedAddress6: '2001:db8::1'}", key: "media.announcedAddress6", reason: "needs media.bindAddress6"),
        BadCase(yaml: "media: {bindAddress6: '::', announcedAddress6: '::'}", key: "media.announcedAddress6", reason: "clients can reach"),
        BadCase(yaml: "media: {bindAddress6: '::1', announcedAddress6: fast}", key: "media.announcedAddress6", reason: "clients can reach"),
        BadCase(yaml: "media: {webrtcTCPConnectionsPerAddress: 0}", key: "media.webrtcTCPConnectionsPerAddress", reason: "between 1 and 65535"),
        BadCase(yaml: "media: {webrtcTCP: maybe}", key: "media.webrtcTCP", reason: "true or false"),
        BadCase(yaml: "media: {retransmissionBufferPackets: 500}", key: "media.retransmissionBufferPackets", reason: "power of two"),
        BadCase(yaml: "auth: {keys: [{id: k, secret: short}]}", key: "auth.keys[0].secret", reason: "at least 32"),
        BadCase(yaml: "auth: {keys: [{secret: 0123456789abcdef0123456789abcdef}]}", key: "auth.keys[0].id", reason: "required"),
        BadCase(
            yaml: "auth: {keys: [{id: a, secret: 0123456789abcdef0123456789abcdef}, {id: a, secret: 0123456789abcdef0123456789abcdef}]}",
            key: "auth.keys[1].id", reason: "used twice"),
        BadCase(yaml: "auth: {keys: [{id: a, secret: 0123456789abcdef0123456789abcdef, extra: 1}]}", key: "auth.keys[0].extra", reason: "unknown key"),
        BadCase(yaml: "rooms: {maxForwardTargetsPerUser: 0}", key: "rooms.maxForwardTargetsPerUser", reason: "between 1 and 64"),
        BadCase(yaml: "logging: {format: xml}", key: "logging.format", reason: "text, json"),
        BadCase(yaml: "media: 5", key: "media", reason: "mapping"),
        BadCase(yaml: "[1, 2]", key: "", reason: "mapping"),
        BadCase(yaml: "control: {port: [", key: "", reason: "not valid YAML"),
        // Keys that are not plain names once stopped the relay inside the YAML library.
        BadCase(yaml: "? [a, b]: 1", key: "", reason: "a mapping key is a list, mapping or alias"),
        BadCase(yaml: "control:\n  ? {port: 1}\n  : 2", key: "control", reason: "a mapping key is a list, mapping or alias"),
        BadCase(yaml: "auth: {keys: [{? [x]: y}]}", key: "auth.keys[0]", reason: "a mapping key is a list, mapping or alias"),
    ]

    @Test func environmentValuesWithKeysThatAreNotNamesAreRefused() {
        do {
            _ = try RelayConfiguration.load(yaml: "", environment: ["PKRELAY_WEBHOOKS_URLS": "{? [a]: b}"])
            Issue.record("accepted")
        } catch {
            #expect(error.key == "PKRELAY_WEBHOOKS_URLS")
            #expect(error.reason.contains("not a valid YAML value: a mapping key"), "reason was: \(error.reason)")
        }
    }

    @Test(arguments: badCases)
    func badValuesAreRefusedWithKeyAndReason(_ bad: BadCase) {
        do {
            _ = try RelayConfiguration.load(yaml: bad.yaml)
            Issue.record("accepted: \(bad.yaml)")
        } catch {
            #expect(error.key == bad.key)
            #expect(error.reason.contains(bad.reason), "reason was: \(error.reason)")
        }
    }
}
