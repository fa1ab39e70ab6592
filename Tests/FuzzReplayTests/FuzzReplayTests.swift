import Auth
import Foundation
@_spi(Fuzzing) import MediaPlane
import SecureTransport
import Testing

@testable import FuzzTargets

/// Runs every committed fuzzing input, the seed corpus and the inputs that once found a bug,
/// through its target. A target traps on the bugs it checks for, so returning is the assertion;
/// the counts make sure no target's corpus has gone missing.
@Suite struct FuzzReplayTests {
    /// The repository's `Fuzz` directory, found from this file.
    static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The files of `Fuzz/<kind>/<target>`, sorted; none when the directory does not exist.
    static func inputs(_ kind: String, _ target: FuzzTarget) throws -> [URL] {
        let directory = fuzzDirectory.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test("every target has a seed corpus", arguments: FuzzTarget.allCases)
    func corpusIsNotEmpty(target: FuzzTarget) throws {
        #expect(try Self.inputs("Corpus", target).count >= 2, "Fuzz/Corpus/\(target.rawValue) needs seed inputs")
    }

    @Test("no corpus or regression directory names an unknown target")
    func directoriesNameTargets() throws {
        for kind in ["Corpus", "Regressions"] {
            let directory = Self.fuzzDirectory.appendingPathComponent(kind)
            guard FileManager.default.fileExists(atPath: directory.path) else { continue }
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !name.hasPrefix(".") {
                #expect(FuzzTarget(rawValue: name) != nil, "Fuzz/\(kind)/\(name) is not a fuzz target")
            }
        }
    }

    /// How many seed inputs each target's corpus holds at least: a seed that goes missing (a
    /// rename, a bad merge) fails the replay instead of shrinking it in silence. Raise a count
    /// when seeds are added.
    static let seedCounts: [FuzzTarget: Int] = [
        .rtp: 9, .rtcp: 10, .stun: 11, .sdp: 6, .dtls: 4, .codecs: 5, .token: 11, .config: 5, .control: 6, .srtp: 3, .media: 5, .shards: 5, .stream: 3,
    ]

    @Test("corpus and regression inputs run through their target", arguments: FuzzTarget.allCases)
    func replay(target: FuzzTarget) async throws {
        let seeds = try Self.inputs("Corpus", target)
        #expect(seeds.count >= Self.seedCounts[target] ?? 2, "Fuzz/Corpus/\(target.rawValue) lost seeds: \(seeds.count) left")
        // A target traps on the bugs it checks for: getting through every input is the assertion.
        for file in seeds + (try Self.inputs("Regressions", target)) {
            await target.replay(Array(try Data(contentsOf: file)))
        }
    }

    @Test("control scripts read as documented")
    func controlScriptSteps() {
        let text = "a{\"id\":1}\nB\n!c\nt250\nt\nt99999999999\n*kick r1 u2\n~\nzzz\n"
        let script = Array(text.utf8).withUnsafeBytes { ControlFuzzScript($0) }
        #expect(
            script.steps == [
                .send(session: 0, text: "{\"id\":1}"), .reconnect(session: 1), .sendBinary(session: 2), .advance(milliseconds: 250),
                .advance(milliseconds: 1_000), .advance(milliseconds: 3_600_000), .admin(words: ["kick", "r1", "u2"]), .drain,
                .send(session: 0, text: "zzz"),
            ])
    }

    @Test("token placeholders in control scripts become tokens the relay accepts")
    func controlScriptTokens() throws {
        let text = ControlFuzzScript.expandingTokens(#"{"token":"$token(r1,u1)","x":"$token(,)"}"#, startMs: ControlFuzzRelay.startMs)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
        let verifier = TokenVerifier(keys: [.development])
        let now = ControlFuzzRelay.startMs / 1000
        guard case .success(let claims) = verifier.verify(object["token"] ?? "", roomId: "r1", userId: "u1", nowSeconds: now) else {
            Issue.record("the expanded token does not verify: \(text)")
            return
        }
        #expect(claims.exp == now + 3_600)
        #expect(object["x"]?.split(separator: ".").count == 3)
    }

    /// The replies of the relay to a control seed script, per connection.
    static func controlTranscript(_ name: String) async throws -> [[String]] {
        let bytes = try Data(contentsOf: fuzzDirectory.appendingPathComponent("Corpus/control/\(name)"))
        let script = Array(bytes).withUnsafeBytes { ControlFuzzScript($0) }
        return await ControlFuzzRelay.shared.run(script)
    }

    /// Whether `messages` hold a successful answer to request `id`.
    static func succeeded(_ id: Int, in messages: [String]) -> Bool {
        messages.contains { $0.hasPrefix("{\"id\":\(id),\"result\"") }
    }

    @Test("the control seeds reach publishing, subscribing and WebRTC negotiation")
    func controlSeedsGoDeep() async throws {
        let media = try await Self.controlTranscript("join-publish-subscribe")
        #expect((1...4).allSatisfy { Self.succeeded($0, in: media[0]) }, "\(media[0])")
        #expect((1...4).allSatisfy { Self.succeeded($0, in: media[1]) }, "\(media[1])")
        let webRTC = try await Self.controlTranscript("webrtc-publish-and-subscribe")
        #expect(webRTC[0].contains { $0.hasPrefix("{\"id\":3,\"result\"") && $0.contains("\"sdp\"") }, "\(webRTC[0])")
        #expect(webRTC[1].contains { $0.contains("onTransportOffer") }, "\(webRTC[1])")
        let pk = try await Self.controlTranscript("pk-link-and-invitation")
        #expect(Self.succeeded(2, in: pk[0]) && Self.succeeded(5, in: pk[0]), "\(pk[0])")
        #expect(Self.succeeded(2, in: pk[1]), "\(pk[1])")
    }

    @Test("the control seed with empty forward target rooms gets its errors, with webhooks on")
    func controlSeedWithEmptyForwardTargets() async throws {
        let transcript = try await Self.controlTranscript("forward-empty-target-webhooks")
        let started = try #require(transcript[0].first { $0.hasPrefix("{\"id\":2,") })
        #expect(started.components(separatedBy: "1201").count - 1 == 2, "\(started)")
        #expect(Self.succeeded(3, in: transcript[0]), "\(transcript[0])")
    }

    @Test(
        "the media seed reaches every kind of subscriber, segment padding and repairs, and sends no packet twice",
        arguments: [false, true])
    func mediaSeedGoesDeep(secondShard: Bool) throws {
        let bytes = try Data(contentsOf: Self.fuzzDirectory.appendingPathComponent("Corpus/media/every-subscriber-kind-rtx-padding-srtp-publisher"))
        let (batches, packetwise) = Array(bytes).withUnsafeBytes { FuzzTarget.playMedia($0, secondShard: secondShard) }
        let rtp = batches.filter { ($0.status == nil || $0.status == .ok) && !$0.isRTCP }
        for subscriber in 0..<4 {
            #expect(
                rtp.contains { $0.transport == 2 + subscriber && $0.ssrc == MediaCoreFuzzRig.videoSSRC(ofSubscriber: subscriber) }, "video to \(subscriber)")
            #expect(
                rtp.contains { $0.transport == 2 + subscriber && $0.ssrc == MediaCoreFuzzRig.audioSSRC(ofSubscriber: subscriber) }, "audio to \(subscriber)")
        }
        #expect(rtp.contains { $0.ssrc == MediaCoreFuzzRig.retransmissionSSRC(ofSubscriber: 1) }, "the NACK was answered over RTX")
        #expect(rtp.contains { $0.transport == 2 && $0.bytes[0] & 0x20 != 0 }, "a video packet was padded to its run")
        #expect(!packetwise.contains { $0.transport == 2 && $0.bytes[0] & 0x20 != 0 }, "packet by packet there is no run to pad to")
        // Packets with a transport-wide sequence number are reported back to the publisher.
        #expect(
            batches.contains { $0.transport == MediaCoreFuzzRig.publisherTransport && $0.isRTCP && $0.bytes[1] == 205 && $0.bytes[0] & 0x1F == 15 },
            "the publisher got transport-wide feedback")
        // The publisher repairs a packet over RTX that had already arrived: it is not sent again.
        let numbered = rtp.map { "\($0.transport) \($0.ssrc) \($0.sequenceNumber)" }
        #expect(Set(numbered).count == numbered.count)
    }
}
