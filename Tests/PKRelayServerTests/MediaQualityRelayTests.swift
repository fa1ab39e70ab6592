import PKRelayClient
import Protocol
import SecureTransport
import Testing

/// Volume reports, active speaker and network quality end to end on loopback.
@Suite struct MediaQualityRelayTests {
    static let levelExtensionId: UInt8 = 3

    /// Joins `user`, opens a latching transport and publishes an audio track whose level travels in extension 3.
    static func startAudioPublisher(_ relay: TestRelay, room: String, user: String, ssrc: UInt32) async throws -> (ControlClient, MediaEndpoint) {
        let client = try await relay.join(room: room, user: user)
        let endpoint = try await MediaHelpers.openEndpoint(client, profile: .aeadAES128GCM, latch: true)
        let tracks = [
            TrackDescription(kind: .video, ssrc: ssrc + 1, payloadType: 96, codec: "VP8", clockRate: 90000),
            TrackDescription(
                kind: .audio, ssrc: ssrc, payloadType: 111, codec: "opus", clockRate: 48000, channels: 2, audioLevelExtensionId: Int(levelExtensionId)),
        ]
        let _: PublishStreamResult = try await client.request(
            "publishStream", PublishStreamParams(roomId: room, streamIndex: .main, transportId: endpoint.transportId, tracks: tracks))
        return (client, endpoint)
    }

    @Test("two publishers ranked by level for a subscriber with reports on; quality events arrive", .timeLimit(.minutes(1)))
    func volumeRankingAndQuality() async throws {
        try await TestRelay.with { relay in
            let (alice, aliceEndpoint) = try await Self.startAudioPublisher(relay, room: "vol", user: "alice", ssrc: 0x0A11_0000)
            let (_, bobEndpoint) = try await Self.startAudioPublisher(relay, room: "vol", user: "bob", ssrc: 0x0B0B_0000)
            let carol = try await TestSubscriber.start(relay, room: "vol", user: "carol", publisher: "alice", profile: .aeadAES128GCM)
            try await carol.client.call("enableAudioPropertiesReport", EnableAudioPropertiesReportParams(roomId: "vol", intervalMs: 300, topN: 3))

            let sender = Task {
                var aliceAudio = OpusLikePacketizer(ssrc: 0x0A11_0000)
                var bobAudio = OpusLikePacketizer(ssrc: 0x0B0B_0000)
                for _ in 0..<400 where !Task.isCancelled {
                    try? aliceEndpoint.send(aliceAudio.nextPacket(audioLevel: (id: Self.levelExtensionId, level: 10, voiceActivity: true)))
                    try? bobEndpoint.send(bobAudio.nextPacket(audioLevel: (id: Self.levelExtensionId, level: 50, voiceActivity: true)))
                    try? await Task.sleep(for: .milliseconds(20))
                }
            }
            defer { sender.cancel() }

            // Reports come every ~300 ms; wait (bounded) for one naming both publishers.
            var ranked: [SpeakerVolume] = []
            for _ in 0..<20 {
                let event = try await carol.client.nextEvent(named: "onRemoteAudioPropertiesReport", timeout: .seconds(3))
                guard case .remoteAudioPropertiesReport(let report)? = event.event else {
                    Issue.record("undecodable report: \(event.text)")
                    return
                }
                #expect(report.roomId == "vol")
                if report.speakers.count == 2 {
                    ranked = report.speakers
                    break
                }
            }
            #expect(ranked.map(\.userId) == ["alice", "bob"])
            #expect(ranked.map(\.level) == [10, 50])
            #expect(ranked.first?.linearVolume == 81)
            #expect(ranked.allSatisfy { $0.voiceActivity && $0.streamIndex == .main })

            let speaker = try await carol.client.nextEvent(named: "onActiveSpeaker", timeout: .seconds(3))
            #expect(speaker.event == .activeSpeaker(ActiveSpeakerEvent(roomId: "vol", userId: "alice")))

            // Network quality: carol receives alice; alice publishes. Skip rounds taken before media flowed.
            var carolRemote: NetworkQualityInfo?
            for _ in 0..<4 {
                let event = try await carol.client.nextEvent(named: "onNetworkQuality", timeout: .seconds(4))
                guard case .networkQuality(let quality)? = event.event else {
                    Issue.record("undecodable: \(event.text)")
                    return
                }
                #expect(quality.local.userId == "carol")
                if let remote = quality.remotes.first(where: { $0.userId == "alice" }), remote.quality != 0 {
                    carolRemote = remote
                    break
                }
            }
            // Known and not Down; the exact grade depends on scheduling jitter of a loaded test machine.
            #expect(
                carolRemote.map { (1...5).contains($0.quality) && $0.lossRate != nil && $0.jitterMs != nil } == true,
                "alice as carol receives her: \(String(describing: carolRemote))")
            var aliceLocal: NetworkQualityInfo?
            for _ in 0..<4 {
                let event = try await alice.nextEvent(named: "onNetworkQuality", timeout: .seconds(4))
                guard case .networkQuality(let quality)? = event.event else {
                    Issue.record("undecodable: \(event.text)")
                    return
                }
                if quality.local.quality != 0 {
                    aliceLocal = quality.local
                    break
                }
            }
            #expect(
                aliceLocal.map { $0.userId == "alice" && (1...5).contains($0.quality) && $0.lossRate != nil } == true,
                "alice's uplink: \(String(describing: aliceLocal))")

            // Reports off: no further report after the answer (one may already be queued).
            try await carol.client.call("enableAudioPropertiesReport", EnableAudioPropertiesReportParams(roomId: "vol", intervalMs: 0))
            let bad = try await carol.client.exchangeRaw(#"{"id":99,"method":"enableAudioPropertiesReport","params":{"roomId":"vol","intervalMs":50}}"#)
            #expect(bad.error?.code == .invalidParams)
            // On a transport that may publish: carol's receiving one is receiveOnly.
            let sending: CreateTransportResult = try await carol.client.request("createTransport", CreateTransportParams())
            let videoLevel = try await carol.client.exchangeRaw(
                #"{"id":100,"method":"publishStream","params":{"roomId":"vol","transportId":\#(sending.transportId),"tracks":"#
                    + #"[{"kind":"video","ssrc":77,"payloadType":96,"codec":"VP8","clockRate":90000,"audioLevelExtensionId":2}]}}"#
            )
            #expect(videoLevel.error?.code == .invalidParams)
            #expect(videoLevel.error?.message.contains("audioLevelExtensionId") == true)
        }
    }
}
