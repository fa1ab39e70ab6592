import Foundation
import MediaPlane
import PKRelayClient
import PKRelayServer
import Protocol
import RTPWire
import SecureTransport
import Testing

/// Media through the relay on loopback: real UDP sockets, real libsrtp on both sides.
@Suite("Media relay end to end", .timeLimit(.minutes(1)))
struct MediaRelayTests {
    /// Checks that `received` is exactly the packets of `sent` from some index on (nothing lost,
    /// nothing extra, in order) and returns that index.
    static func suffixStart(of received: [ReceivedRTPPacket], in sent: [OutgoingRTPPacket], _ context: String) -> Int? {
        guard let first = received.first, let start = sent.firstIndex(where: { $0.payload == first.payload }) else {
            Issue.record("\(context): the first packet received is not one that was sent (\(received.count) received)")
            return nil
        }
        let expected = sent[start...].map(\.payload)
        #expect(
            received.map(\.payload) == Array(expected),
            "\(context): received \(received.count) packets, expected the \(expected.count) sent from index \(start)")
        return start
    }

    /// Checks sequence numbers run on by one and timestamps move exactly as the source's did.
    static func checkNumbering(_ received: [ReceivedRTPPacket], sent: ArraySlice<OutgoingRTPPacket>, _ context: String) {
        #expect(MediaHelpers.isContinuous(received.map(\.sequenceNumber)), "\(context): sequence gap \(MediaHelpers.firstGap(received.map(\.sequenceNumber)))")
        guard let first = received.first, let sentFirst = sent.first else { return }
        for (packet, original) in zip(received, sent) {
            if packet.timestamp &- first.timestamp != original.timestamp &- sentFirst.timestamp {
                Issue.record("\(context): timestamp offset changed at output \(packet.sequenceNumber)")
                return
            }
        }
    }

    @Test("fan-out to three subscribers, republish continuity, NACK retransmission", arguments: [SRTPProfile.aeadAES128GCM, .aesCM128HMACSHA1_80])
    func fanOutRepublishAndNACK(profile: SRTPProfile) async throws {
        try await TestRelay.with({ $0.media.retransmissionMaximumAgeMs = 5000 }) { relay in
            let publisher = try await TestPublisher.start(relay, room: "pk", user: "anchor", profile: profile, videoSSRC: 0x1111_0001, audioSSRC: 0x2222_0001)
            // Latch the publisher's address before anyone subscribes.
            try publisher.sendFrame(keyframe: true)

            var subscribers: [TestSubscriber] = []
            for name in ["s1", "s2", "s3"] {
                subscribers.append(try await TestSubscriber.start(relay, room: "pk", user: name, publisher: "anchor", profile: profile))
            }
            let answered: [UInt32] = subscribers.flatMap { [$0.videoSSRC, $0.audioSSRC ?? 0] }
            #expect(Set(answered).count == 6, "every subscriber track has its own SSRC: \(answered)")
            #expect(!answered.contains(0) && !answered.contains(0x1111_0001) && !answered.contains(0x2222_0001))

            // Two inter frames first: a new video subscriber must not get them.
            let videoBefore = publisher.sentVideo.count
            let audioBefore = publisher.sentAudio.count
            try await publisher.sendFrames(40, keyframes: [2, 20])
            let sentVideo = Array(publisher.sentVideo[videoBefore...])
            let sentAudio = Array(publisher.sentAudio[audioBefore...])
            for subscriber in subscribers {
                try await subscriber.waitFor(videoPayload: sentVideo.last!.payload, audioPayload: sentAudio.last!.payload)
            }
            for subscriber in subscribers {
                let video = subscriber.video
                let audio = subscriber.audio
                #expect(VP8Packetizer.isKeyframe(payload: video.first?.payload ?? []), "\(subscriber.name): first video packet is a keyframe")
                if let start = Self.suffixStart(of: video, in: sentVideo, "\(subscriber.name) video") {
                    #expect(VP8Packetizer.isKeyframe(payload: sentVideo[start].payload))
                    #expect(start >= 6, "\(subscriber.name): the two inter frames before the first keyframe were dropped")
                    Self.checkNumbering(video, sent: sentVideo[start...], "\(subscriber.name) video")
                }
                if let start = Self.suffixStart(of: audio, in: sentAudio, "\(subscriber.name) audio") {
                    Self.checkNumbering(audio, sent: sentAudio[start...], "\(subscriber.name) audio")
                }
                #expect(video.allSatisfy { $0.payloadType == 96 } && audio.allSatisfy { $0.payloadType == 111 })
                #expect(subscriber.endpoint.receivedRTP().allSatisfy { $0.ssrc == subscriber.videoSSRC || $0.ssrc == subscriber.audioSSRC })
                #expect(subscriber.endpoint.counters.authenticationFailures == 0)
            }

            // Republish with new SSRCs, sequence numbers far away and timestamps going backwards.
            let lastVideo = subscribers.map { $0.video.last! }
            let lastAudio = subscribers.map { $0.audio.last! }
            // The republished packetizers start their payload patterns again, so the wait below
            // must only look at what arrives from here on.
            let baselines = subscribers.map(\.receivedCount)
            try await publisher.client.call("unpublishStream", StreamParams(roomId: "pk", streamIndex: .main))
            for subscriber in subscribers {
                let event = try await subscriber.client.nextEvent(named: "onUserUnpublishStream")
                guard case .userUnpublishStream(let data)? = event.event else {
                    Issue.record("\(event.text)")
                    continue
                }
                #expect(data.reason == .unpublish && data.userId == "anchor")
            }
            publisher.video = VP8Packetizer(
                ssrc: 0x1111_0002, initialSequenceNumber: publisher.video.sequenceNumber &+ 30000, initialTimestamp: publisher.video.timestamp &- 0x3000_0000)
            publisher.audio = OpusLikePacketizer(
                ssrc: 0x2222_0002, initialSequenceNumber: publisher.audio.sequenceNumber &+ 25000, initialTimestamp: publisher.audio.timestamp &- 0x3000_0000)
            try await publisher.publish()
            for subscriber in subscribers {
                let event = try await subscriber.client.nextEvent(named: "onStreamSubscribed")
                guard case .streamSubscribed(let data)? = event.event else {
                    Issue.record("\(event.text)")
                    continue
                }
                #expect(Set(data.tracks.map(\.ssrc)) == [subscriber.videoSSRC, subscriber.audioSSRC!], "\(subscriber.name) keeps its SSRCs: \(event.text)")
            }
            let republishVideoStart = publisher.sentVideo.count
            let republishAudioStart = publisher.sentAudio.count
            try await publisher.sendFrames(25, keyframes: [1, 15])
            let sentVideo2 = Array(publisher.sentVideo[republishVideoStart...])
            let sentAudio2 = Array(publisher.sentAudio[republishAudioStart...])
            for (subscriber, baseline) in zip(subscribers, baselines) {
                try await subscriber.waitFor(videoPayload: sentVideo2.last!.payload, audioPayload: sentAudio2.last!.payload, after: baseline)
            }
            for (index, subscriber) in subscribers.enumerated() {
                let video = Array(subscriber.video.drop { $0 != lastVideo[index] }.dropFirst())
                let audio = Array(subscriber.audio.drop { $0 != lastAudio[index] }.dropFirst())
                guard let firstVideo = video.first, let firstAudio = audio.first else {
                    Issue.record("\(subscriber.name): nothing after the republish")
                    continue
                }
                #expect(firstVideo.sequenceNumber == lastVideo[index].sequenceNumber &+ 1, "\(subscriber.name): video continues at +1")
                #expect(MediaHelpers.isAfter(firstVideo.timestamp, lastVideo[index].timestamp), "\(subscriber.name): video timestamp moves forward")
                #expect(VP8Packetizer.isKeyframe(payload: firstVideo.payload), "\(subscriber.name): video restarts at a keyframe")
                #expect(firstAudio.sequenceNumber == lastAudio[index].sequenceNumber &+ 1, "\(subscriber.name): audio continues at +1")
                #expect(MediaHelpers.isAfter(firstAudio.timestamp, lastAudio[index].timestamp), "\(subscriber.name): audio timestamp moves forward")
                if let start = Self.suffixStart(of: video, in: sentVideo2, "\(subscriber.name) republished video") {
                    #expect(
                        start == sentVideo2.firstIndex { VP8Packetizer.isKeyframe(payload: $0.payload) },
                        "\(subscriber.name): the inter frame before the keyframe was dropped")
                    Self.checkNumbering(video, sent: sentVideo2[start...], "\(subscriber.name) republished video")
                }
                if let start = Self.suffixStart(of: audio, in: sentAudio2, "\(subscriber.name) republished audio") {
                    #expect(start == 0, "\(subscriber.name): audio resumes with the first packet")
                    Self.checkNumbering(audio, sent: sentAudio2[start...], "\(subscriber.name) republished audio")
                }
                let all = subscriber.video.map(\.sequenceNumber)
                #expect(MediaHelpers.isContinuous(all), "\(subscriber.name): one continuous video sequence across the republish: \(MediaHelpers.firstGap(all))")
            }

            // A NACK from s1 for packets it received brings the same packets back, to s1 only.
            let nacker = subscribers[0]
            let originals = Array(nacker.video.suffix(8).prefix(5))
            try nacker.endpoint.sendGenericNACK(senderSSRC: 0x5EED_0001, mediaSSRC: nacker.videoSSRC, sequenceNumbers: originals.map(\.sequenceNumber))
            let repeats = try await nacker.endpoint.waitForRTP(timeout: .seconds(5), "5 retransmissions") { packets in
                packets.filter(\.isRetransmission).count >= 5
            }.filter(\.isRetransmission)
            #expect(repeats.count == 5)
            for original in originals {
                let again = repeats.first { $0.sequenceNumber == original.sequenceNumber }
                #expect(
                    again?.payload == original.payload && again?.timestamp == original.timestamp && again?.ssrc == original.ssrc,
                    "retransmission of \(original.sequenceNumber)")
            }
            let stats = try await Self.waitForStats(nacker.client, "retransmissions in getStats") { stats in
                stats.subscribed.first { $0.ssrc == nacker.videoSSRC }.map { $0.retransmissions >= 5 } ?? false
            }
            #expect(stats.subscribed.first { $0.ssrc == nacker.videoSSRC }?.retransmissions == 5)
            // A plain SRTP subscriber negotiates no transport-wide feedback: its transport's
            // estimate comes from receiver reports, from the relay's start rate.
            let estimate = try #require(stats.transports.first?.bandwidthEstimate)
            #expect(estimate.source == "receiver_reports" && estimate.feedbacks == 0 && estimate.estimateBps > 0)
            #expect(try await relay.metric(#"pkrelay_subscriber_estimates{source="receiver_reports"}"#) >= UInt64(subscribers.count))
            for other in subscribers.dropFirst() {
                #expect(other.endpoint.counters.retransmissions == 0, "\(other.name) got no retransmissions")
            }
            #expect(try await relay.metric("pkrelay_retransmissions_total") == 5)

            try await relay.expectConsistentSendingCounts()

            for subscriber in subscribers {
                subscriber.endpoint.close()
                await subscriber.client.close()
            }
            publisher.endpoint.close()
            await publisher.client.close()
        }
    }

    @Test("PLI reaches the publisher for its own SSRC, merged within the throttle interval")
    func keyframeRequests() async throws {
        // Long enough that "two requests within one interval" holds even on a loaded machine; the
        // throttle's exact timing is covered with a scripted clock in StreamCoreTests.
        let interval: Int64 = 3000
        try await TestRelay.with({ $0.media.keyframeRequestIntervalMs = interval }) { relay in
            let publisher = try await TestPublisher.start(
                relay, room: "pli", user: "anchor", profile: .aeadAES128GCM, videoSSRC: 0x3333_0001, audioSSRC: 0x3333_0002, videoOnly: true)
            try publisher.sendFrame(keyframe: false, withAudio: false)
            let first = try await TestSubscriber.start(relay, room: "pli", user: "s1", publisher: "anchor", profile: .aeadAES128GCM)
            let second = try await TestSubscriber.start(relay, room: "pli", user: "s2", publisher: "anchor", profile: .aeadAES128GCM)
            #expect(first.audioSSRC == nil && second.audioSSRC == nil)
            let ssrc = publisher.video.ssrc

            // A new subscriber makes the relay ask the publisher for a keyframe.
            let askedOnJoin = try await publisher.endpoint.waitForRTCP(timeout: .seconds(5), "a PLI after subscribing") { $0.isPictureLossIndication }
            #expect(askedOnJoin.mediaSSRC == ssrc)
            let keyframe = try publisher.sendFrame(keyframe: true, withAudio: false)
            try await first.waitFor(videoPayload: keyframe.last!.payload)
            try await second.waitFor(videoPayload: keyframe.last!.payload)
            let keyframeSentAt = ContinuousClock.now

            // Outside the quiet period after that keyframe, two subscribers ask at once.
            try await Task.sleep(until: keyframeSentAt + .milliseconds(interval + 300))
            let before = publisher.pictureLossIndications(for: ssrc)
            let receivedBefore = try await relay.metric("pkrelay_keyframe_requests_received_total")
            let sentBefore = try await relay.metric("pkrelay_keyframe_requests_sent_total")
            try first.endpoint.sendPictureLossIndication(senderSSRC: 0xAAAA_0001, mediaSSRC: first.videoSSRC)
            try second.endpoint.sendPictureLossIndication(senderSSRC: 0xAAAA_0002, mediaSSRC: second.videoSSRC)
            let forwarded = try await publisher.endpoint.waitForRTCP(timeout: .seconds(3), "the forwarded PLI") { message in
                message.isPictureLossIndication && message.mediaSSRC == ssrc
                    && publisher.endpoint.receivedRTCP().filter(\.isPictureLossIndication).count > before
            }
            let forwardedAt = ContinuousClock.now
            #expect(forwarded.mediaSSRC == ssrc, "the PLI names the publisher's own SSRC")
            try await relay.waitForMetric("pkrelay_keyframe_requests_received_total") { $0 >= receivedBefore + 2 }
            // Both requests are processed; give a stray second PLI time to arrive, within the interval.
            try await Task.sleep(for: .milliseconds(300))
            #expect(publisher.pictureLossIndications(for: ssrc) == before + 1, "two requests within the interval produce one PLI")
            #expect(try await relay.metric("pkrelay_keyframe_requests_sent_total") == sentBefore + 1)
            #expect(!publisher.endpoint.receivedRTCP().contains { $0.isPictureLossIndication && $0.mediaSSRC != ssrc })

            // After the interval a new request goes through again.
            try await Task.sleep(until: forwardedAt + .milliseconds(interval + 200))
            try second.endpoint.sendPictureLossIndication(senderSSRC: 0xAAAA_0002, mediaSSRC: second.videoSSRC)
            try await publisher.endpoint.waitForRTCP(timeout: .seconds(8), "a PLI after the interval") { _ in
                publisher.pictureLossIndications(for: ssrc) >= before + 2
            }

            for subscriber in [first, second] {
                subscriber.endpoint.close()
                await subscriber.client.close()
            }
            publisher.endpoint.close()
            await publisher.client.close()
        }
    }

    @Test("packets from a wrong address, with a wrong key, replayed or garbage are dropped, counted, and harmless")
    func foreignPacketsAreDropped() async throws {
        try await TestRelay.with { relay in
            let profile = SRTPProfile.aeadAES128GCM
            let publisher = try await TestPublisher.start(relay, room: "drop", user: "anchor", profile: profile, videoSSRC: 0x4444_0001, audioSSRC: 0x4444_0002)
            try publisher.sendFrame(keyframe: true)
            let subscriber = try await TestSubscriber.start(relay, room: "drop", user: "viewer", publisher: "anchor", profile: profile)
            let startVideo = publisher.sentVideo.count
            try await publisher.sendFrames(10, keyframes: [0])
            try await subscriber.waitFor(videoPayload: publisher.sentVideo.last!.payload)
            let unexpectedBefore = try await relay.metric(#"pkrelay_dropped_packets_total{reason="unexpected_source"}"#)
            let authBefore = try await relay.metric(#"pkrelay_dropped_packets_total{reason="srtp_auth_failed"}"#)
            let replayBefore = try await relay.metric(#"pkrelay_dropped_packets_total{reason="srtp_replayed"}"#)
            let notRTPBefore = try await relay.metric(#"pkrelay_dropped_packets_total{reason="not_rtp"}"#)

            // An intruder with the publisher's key and SSRC, from another port.
            let intruder = try MediaEndpoint(
                transportId: publisher.endpoint.transportId, profile: profile, relayKey: SDESKeying.generateKeyingMaterial(for: profile),
                relayHost: publisher.endpoint.relayHost, relayPort: publisher.endpoint.relayPort, sendingKey: publisher.endpoint.localKey)
            var forger = publisher.video
            let forged = forger.nextFrame(keyframe: true, size: 1500)
            for packet in forged {
                var fake = packet
                fake.payload = [0x10] + [UInt8](repeating: 0xEE, count: packet.payload.count - 1)
                try intruder.send(fake)
            }
            // From the publisher's own address: a packet with a broken tag, then the real one.
            let frame = publisher.video.nextFrame(keyframe: false)
            let protected = try publisher.endpoint.protect(frame[0])
            var tampered = protected
            tampered[tampered.count - 1] ^= 0xFF
            try publisher.endpoint.sendDatagram(tampered)
            try publisher.endpoint.sendDatagram(protected)
            // The same packet twice more (a replay), and bytes that are no RTP at all.
            try publisher.endpoint.sendDatagram(protected)
            try publisher.endpoint.sendDatagram(protected)
            for garbage: [UInt8] in [[0x00], [0x17, 0xFE, 0xFD, 0x00], [UInt8](repeating: 0xFF, count: 300)] {
                try publisher.endpoint.sendDatagram(garbage)
            }
            try publisher.endpoint.send(Array(frame.dropFirst()))
            publisher.sentVideo += frame
            // A second transport whose client encrypts with another key than it announced.
            let created: CreateTransportResult = try await publisher.client.request("createTransport", CreateTransportParams(srtpProfile: profile.rawValue))
            let wrongKey = try MediaEndpoint(transport: created)
            try await publisher.client.call(
                "connectTransport", ConnectTransportParams(transportId: created.transportId, srtpKey: SDESKeyingHelper.randomKey(for: created)))
            var wronglyKeyed = OpusLikePacketizer(ssrc: 0x4444_0002)
            for _ in 0..<3 { try wrongKey.send(wronglyKeyed.nextPacket()) }

            try await publisher.sendFrames(10, keyframes: [])
            try await subscriber.waitFor(videoPayload: publisher.sentVideo.last!.payload, audioPayload: publisher.sentAudio.last!.payload)
            let unexpected = try await relay.waitForMetric(#"pkrelay_dropped_packets_total{reason="unexpected_source"}"#) {
                $0 >= unexpectedBefore + UInt64(forged.count)
            }
            let auth = try await relay.waitForMetric(#"pkrelay_dropped_packets_total{reason="srtp_auth_failed"}"#) { $0 >= authBefore + 4 }
            #expect(unexpected - unexpectedBefore == UInt64(forged.count), "the forged packets")
            #expect(auth - authBefore == 4, "the tampered packet and the three wrongly keyed ones")
            let replayed = try await relay.waitForMetric(#"pkrelay_dropped_packets_total{reason="srtp_replayed"}"#) { $0 >= replayBefore + 2 }
            #expect(replayed - replayBefore == 2, "the two replays")
            let notRTP = try await relay.waitForMetric(#"pkrelay_dropped_packets_total{reason="not_rtp"}"#) { $0 >= notRTPBefore + 3 }
            #expect(notRTP - notRTPBefore == 3, "the three garbage datagrams")

            let video = subscriber.video
            #expect(!video.contains { $0.payload.count > 1 && $0.payload.dropFirst().allSatisfy { $0 == 0xEE } }, "no forged payload reached the subscriber")
            if let start = Self.suffixStart(of: video, in: Array(publisher.sentVideo[startVideo...]), "viewer video") {
                Self.checkNumbering(video, sent: publisher.sentVideo[(startVideo + start)...], "viewer video")
            }
            let stats: GetStatsResult = try await publisher.client.request("getStats", GetStatsParams())
            let transports = Dictionary(uniqueKeysWithValues: stats.transports.map { ($0.transportId, $0) })
            #expect(transports[publisher.endpoint.transportId]?.remote == "127.0.0.1:\(publisher.endpoint.localPort)", "still latched to the publisher")
            #expect(transports[created.transportId]?.remote == nil, "nothing authenticated, nothing latched")

            intruder.close()
            wrongKey.close()
            subscriber.endpoint.close()
            await subscriber.client.close()
            publisher.endpoint.close()
            await publisher.client.close()
        }
    }

    static func waitForStats(
        _ client: ControlClient, _ what: String, timeout: Duration = .seconds(5), until condition: (GetStatsResult) -> Bool
    ) async throws -> GetStatsResult {
        let deadline = ContinuousClock.now + timeout
        while true {
            let stats: GetStatsResult = try await client.request("getStats", GetStatsParams())
            if condition(stats) { return stats }
            guard ContinuousClock.now < deadline else { throw TimeoutError(duration: timeout, what: what) }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
