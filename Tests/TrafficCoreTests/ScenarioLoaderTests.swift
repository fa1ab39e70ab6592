import Foundation
import Testing

@testable import TrafficCore

/// Scenario files, durations and the signing key read from a relay configuration.
struct ScenarioLoaderTests {
    @Test func parsesAScenarioWithDefaults() throws {
        let spec = try ScenarioLoader.parse(
            """
            # a comment
            name: small
            kind: pk-showroom
            rooms: 4
            pkMode: forward
            video: {fps: 30, kbps: 2000}
            """)
        #expect(spec.name == "small")
        #expect(spec.kind == .pkShowroom)
        #expect(spec.rooms == 4)
        #expect(spec.pkMode == .forward)
        #expect(spec.video.fps == 30)
        #expect(spec.video.width == 960)
        #expect(spec.audio.packetsPerSecond == 50)
    }

    @Test func parsesTheChurnPace() throws {
        let spec = try ScenarioLoader.parse(
            """
            kind: churn
            churn: {forwardOnSeconds: 1, forwardOffSeconds: 0.5, linkOnSeconds: 1.5, linkOffSeconds: 0.25}
            """)
        #expect(spec.churn.forwardOnSeconds == 1)
        #expect(spec.churn.forwardOffSeconds == 0.5)
        #expect(spec.churn.linkOnSeconds == 1.5)
        #expect(spec.churn.linkOffSeconds == 0.25)
        #expect(spec.churn.stayMinSeconds == 2)
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse("kind: churn\nchurn: {linkOnSeconds: 0}") }
    }

    @Test func refusesUnknownKeysAndBadValues() {
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse("kind: fanout\nsubscriber: 3") }
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse("kind: fanout\nvideo: {fsp: 3}") }
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse("kind: party") }
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse("kind: fanout\nsubscribers: many") }
    }

    @Test func shippedScenarioFilesLoad() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Config/scenarios").standardized.path
        for kind in ScenarioKind.allCases {
            let spec = try ScenarioLoader.resolve(kind.rawValue, directories: [directory])
            #expect(spec.kind == kind)
            #expect(FileManager.default.fileExists(atPath: directory + "/" + kind.rawValue + ".yaml"))
        }
    }

    @Test func roomsPairUp() {
        var spec = ScenarioSpec(name: "x", kind: .pkShowroom)
        spec.rooms = 3
        #expect(spec.effectiveRooms == 4)
        spec.load = 6
        #expect(spec.rooms == 6)
    }

    @Test func videoFrameSizesMeetTheBitrate() {
        let video = VideoProfile()
        let sizes = video.frameSizes
        let frames = video.keyframeIntervalFrames
        let bytesPerInterval = Double(sizes.key + (frames - 1) * sizes.delta)
        let kbps = bytesPerInterval * 8 / (Double(frames) / Double(video.fps)) / 1000
        #expect(abs(kbps - 1300) < 5)
    }

    @Test func durations() {
        #expect(DurationText.seconds("30s") == 30)
        #expect(DurationText.seconds("2m") == 120)
        #expect(DurationText.seconds("500ms") == 0.5)
        #expect(DurationText.seconds("7") == 7)
        #expect(DurationText.seconds("-1s") == nil)
        #expect(DurationText.seconds("soon") == nil)
    }

    @Test func signingKeyFromRelayConfiguration() throws {
        let key = try SigningKeyConfig.parse(
            relayConfiguration: """
                auth:
                  keys:
                    - id: main
                      secret: "at-least-32-bytes-of-random-secret-material"
                """)
        #expect(key == SigningKeyConfig(id: "main", secret: "at-least-32-bytes-of-random-secret-material"))
        #expect(try SigningKeyConfig.parse(relayConfiguration: "control: {port: 7700}") == .development)
    }
}
