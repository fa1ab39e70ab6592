import Foundation
import PKRelayClient
import Protocol
import SecureTransport
import Testing

/// Cross-room forwarding end to end: a publisher's media reaches viewers in other rooms through
/// the relay, on real UDP with SRTP, and every forward cleans up after itself.
@Suite("Cross-room forwarding end to end", .timeLimit(.minutes(1)))
struct ForwardingRelayTests {
    static let profile = SRTPProfile.aeadAES128GCM

    /// A forward target with a token minted for `room` and the forwarding user `user`.
    static func target(_ room: String, user: String) -> ForwardTargetParams {
        ForwardTargetParams(roomId: room, token: TestRelay.token(room: room, user: user))
    }

    @Test("forward to two rooms: media with own SSRCs, first-keyframe report, pause/resume with new SSRCs, stop")
    func forwardPauseResumeStop() async throws {
        try await TestRelay.with { relay in
            let testStart = ContinuousClock.now
            let anchor = try await TestPublisher.start(relay, room: "r1", user: "A", profile: Self.profile, videoSSRC: 0xA0A0_0001, audioSSRC: 0xA0A0_0002)
            try anchor.sendFrame(keyframe: true)  // latches A's address
            // A local viewer in room 1: the barrier that shows A's packets were processed.
            let local = try await Viewer.join(relay, room: "r1", user: "v1")
            let localTracks = try await local.subscription(of: "A", after: 0)
            let v2 = try await Viewer.join(relay, room: "r2", user: "v2")
            let v3 = try await Viewer.join(relay, room: "r3", user: "v3")
            let viewers = [v2, v3]
            let marks = [await v2.mark(), await v3.mark()]
            let anchorMark = await anchor.client.eventCount

            // One call, two targets.
            let callSent = ContinuousClock.now
            let started: ForwardStreamResult = try await anchor.client.request(
                "startForwardStreamToRooms",
                StartForwardParams(
                    roomId: "r1", targets: [Self.target("r2", user: "A"), Self.target("r3", user: "A")]))
            let callAnswered = ContinuousClock.now
            #expect(started.infos.map(\.roomId).sorted() == ["r2", "r3"])
            #expect(started.infos.allSatisfy { $0.state == ForwardState.success.rawValue && $0.error == 0 }, "\(started)")
            let stateEvent = try await ForwardingHelpers.waitForSequence(
                anchor.client, from: anchorMark, "A: onForwardStreamStateChanged", [{ $0.forwardStateChanged != nil }])[0].forwardStateChanged!
            #expect(stateEvent.roomId == "r1" && stateEvent.userId == "A")
            #expect(Dictionary(uniqueKeysWithValues: stateEvent.infos.map { ($0.roomId, $0.state) }) == ["r2": 1, "r3": 1], "\(stateEvent)")

            var firstSSRCs: [TrackSSRCs] = []
            for (viewer, mark) in zip(viewers, marks) {
                let events = try await ForwardingHelpers.waitForSequence(
                    viewer.client, from: mark, "\(viewer.name): A appears", ForwardingHelpers.appeared("A", from: "r1"))
                #expect(events[0].userJoined?.roomId == viewer.roomId && events[0].userJoined?.role == .anchor)
                #expect(events[1].userPublishStream?.roomId == viewer.roomId && events[1].userPublishStream?.mediaType == MediaType.audioAndVideo)
                firstSSRCs.append(try await viewer.subscription(of: "A", after: mark))
            }
            let allFirst = firstSSRCs.flatMap(\.all) + localTracks.all
            #expect(allFirst.count == 6 && Set(allFirst).count == 6, "every viewer track has its own SSRC: \(firstSSRCs), local \(localTracks)")
            #expect(!allFirst.contains(anchor.video.ssrc) && !allFirst.contains(anchor.audio.ssrc))

            // Two inter frames before the first keyframe: forwarded viewers must not get them.
            let videoStart = anchor.sentVideo.count
            let audioStart = anchor.sentAudio.count
            let sendingStarted = ContinuousClock.now
            try await anchor.sendFrames(30, keyframes: [2, 20])
            let sentVideo = Array(anchor.sentVideo[videoStart...])
            let sentAudio = Array(anchor.sentAudio[audioStart...])
            for (viewer, ssrcs) in zip(viewers, firstSSRCs) {
                try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "\(viewer.name): A's last packets") { packets in
                    packets.contains { $0.ssrc == ssrcs.video && $0.payload == sentVideo.last!.payload }
                        && packets.contains { $0.ssrc == ssrcs.audio && $0.payload == sentAudio.last!.payload }
                }
                let video = viewer.received(ssrcs.video)
                ForwardingHelpers.checkRun(video, sent: sentVideo, video: true, "\(viewer.name) video")
                #expect(
                    video.first?.payload == sentVideo.first { VP8Packetizer.isKeyframe(payload: $0.payload) }?.payload,
                    "\(viewer.name): video starts at the first keyframe (frame 2)")
                ForwardingHelpers.checkRun(viewer.received(ssrcs.audio), sent: sentAudio, video: false, "\(viewer.name) audio")
                #expect(viewer.endpoint.receivedRTP().allSatisfy { ssrcs.all.contains($0.ssrc) }, "\(viewer.name): only its own SSRCs")
                #expect(viewer.endpoint.counters.authenticationFailures == 0)
            }

            // Once a viewer has the keyframe: onForwardStreamFirstKeyframe per target, elapsedMs
            // matching what the viewers saw.
            let firstKeyframes =
                try await ForwardingHelpers.waitForSequence(
                    anchor.client, from: anchorMark, "A: first keyframe for r2 and r3", timeout: .seconds(5),
                    [
                        { $0.forwardFirstKeyframe?.targetRoomId == "r2" }
                    ])
                + ForwardingHelpers.waitForSequence(
                    anchor.client, from: anchorMark, "A: first keyframe for r3", timeout: .seconds(5),
                    [
                        { $0.forwardFirstKeyframe?.targetRoomId == "r3" }
                    ])
            let testDuration = ContinuousClock.now - testStart
            for (event, (viewer, ssrcs)) in zip(firstKeyframes.map { $0.forwardFirstKeyframe! }, zip(viewers, firstSSRCs)) {
                #expect(event.roomId == "r1" && event.userId == "A" && event.via == "forward", "\(event)")
                #expect(
                    event.elapsedMs >= 0 && Duration.milliseconds(event.elapsedMs) < testDuration,
                    "\(viewer.name): elapsedMs \(event.elapsedMs) within the test's \(testDuration)")
                if let arrived = viewer.received(ssrcs.video).first?.receivedAt {
                    Self.checkElapsed(
                        event.elapsedMs, callSent: callSent, callAnswered: callAnswered, sendingStarted: sendingStarted, keyframeArrived: arrived, viewer.name)
                }
            }

            // Pause: A leaves both rooms, and nothing more arrives.
            let pauseMarks = [await v2.mark(), await v3.mark()]
            let paused: ForwardStreamResult = try await anchor.client.request("pauseForwardStreamToAllRooms", RoomParams(roomId: "r1"))
            #expect(paused.infos.allSatisfy { $0.state == ForwardState.success.rawValue }, "states stay Success while paused: \(paused)")
            for (viewer, mark) in zip(viewers, pauseMarks) {
                try await ForwardingHelpers.waitForSequence(viewer.client, from: mark, "\(viewer.name): A goes on pause", ForwardingHelpers.vanished("A"))
            }
            let countsAtPause = viewers.map { $0.endpoint.receivedRTP().count }
            try await anchor.sendFrames(10, keyframes: [0, 5])
            try await local.endpoint.waitForRTP(timeout: .seconds(5), "v1: A's packets during the pause") { packets in
                packets.contains { $0.ssrc == localTracks.video && $0.payload == anchor.sentVideo.last!.payload }
            }
            try await Task.sleep(for: .milliseconds(150))  // a window for stray packets, after the barrier
            for (viewer, count) in zip(viewers, countsAtPause) {
                #expect(viewer.endpoint.receivedRTP().count == count, "\(viewer.name): no packets while the forward is paused")
            }

            // Resume: A appears again; new subscriptions, new SSRCs, a clean new run.
            let resumeMarks = [await v2.mark(), await v3.mark()]
            let resumeAnchorMark = await anchor.client.eventCount
            let resumeSent = ContinuousClock.now
            let _: ForwardStreamResult = try await anchor.client.request("resumeForwardStreamToAllRooms", RoomParams(roomId: "r1"))
            let resumeAnswered = ContinuousClock.now
            var secondSSRCs: [TrackSSRCs] = []
            for (viewer, mark) in zip(viewers, resumeMarks) {
                try await ForwardingHelpers.waitForSequence(viewer.client, from: mark, "\(viewer.name): A is back", ForwardingHelpers.appeared("A", from: "r1"))
                secondSSRCs.append(try await viewer.subscription(of: "A", after: mark))
            }
            for (index, ssrcs) in secondSSRCs.enumerated() {
                #expect(ssrcs.video != nil && ssrcs.audio != nil)
                #expect(
                    Set(ssrcs.all).isDisjoint(with: firstSSRCs[index].all),
                    "\(viewers[index].name): new output SSRCs after resume (\(firstSSRCs[index]) -> \(ssrcs))")
            }
            let resumeVideoStart = anchor.sentVideo.count
            let resumeAudioStart = anchor.sentAudio.count
            let resumeSendingStarted = ContinuousClock.now
            try await anchor.sendFrames(20, keyframes: [1, 12])
            let resumedVideo = Array(anchor.sentVideo[resumeVideoStart...])
            let resumedAudio = Array(anchor.sentAudio[resumeAudioStart...])
            for (viewer, ssrcs) in zip(viewers, secondSSRCs) {
                try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "\(viewer.name): A's packets after resume") { packets in
                    packets.contains { $0.ssrc == ssrcs.video && $0.payload == resumedVideo.last!.payload }
                        && packets.contains { $0.ssrc == ssrcs.audio && $0.payload == resumedAudio.last!.payload }
                }
                let video = viewer.received(ssrcs.video)
                ForwardingHelpers.checkRun(video, sent: resumedVideo, video: true, "\(viewer.name) resumed video")
                #expect(
                    video.first?.payload == resumedVideo.first { VP8Packetizer.isKeyframe(payload: $0.payload) }?.payload,
                    "\(viewer.name): resumes at the first keyframe")
                ForwardingHelpers.checkRun(viewer.received(ssrcs.audio), sent: resumedAudio, video: false, "\(viewer.name) resumed audio")
                #expect(viewer.endpoint.counters.authenticationFailures == 0)
            }
            // The resume restarts the watch: a second first-keyframe report per target.
            for (viewer, ssrcs) in zip(viewers, secondSSRCs) {
                let event = try await ForwardingHelpers.waitForSequence(
                    anchor.client, from: resumeAnchorMark, "A: first keyframe after resume for \(viewer.roomId)",
                    [
                        { $0.forwardFirstKeyframe?.targetRoomId == viewer.roomId }
                    ])[0].forwardFirstKeyframe!
                if let arrived = viewer.received(ssrcs.video).first?.receivedAt {
                    Self.checkElapsed(
                        event.elapsedMs, callSent: resumeSent, callAnswered: resumeAnswered, sendingStarted: resumeSendingStarted, keyframeArrived: arrived,
                        "\(viewer.name) after resume")
                }
            }
            #expect(try await relay.metric("pkrelay_forwards") == 2)

            // Stop: unpublish + leave everywhere, targets Idle, the gauge back to 0.
            let stopMarks = [await v2.mark(), await v3.mark()]
            let stopped: ForwardStreamResult = try await anchor.client.request("stopForwardStreamToRooms", RoomParams(roomId: "r1"))
            #expect(stopped.infos.allSatisfy { $0.state == ForwardState.idle.rawValue } && stopped.infos.count == 2, "\(stopped)")
            for (viewer, mark) in zip(viewers, stopMarks) {
                try await ForwardingHelpers.waitForSequence(viewer.client, from: mark, "\(viewer.name): A stops", ForwardingHelpers.vanished("A"))
            }
            try await relay.waitForMetric("pkrelay_forwards") { $0 == 0 }
            let facts = try await ForwardingHelpers.waitForOverview(relay, "two subscriptions left (v1's audio and video)") {
                $0.subscriptions == 1 && $0.forwardTargets == 0
            }
            #expect(facts.publications == 1, "only A's own publication: \(facts)")

            for viewer in viewers + [local] { await viewer.close() }
            anchor.endpoint.close()
            await anchor.client.close()
        }
    }

    /// elapsedMs is measured from the forward's start to the relay sending the first keyframe:
    /// it must lie between what the test saw from the call's answer and from its sending to
    /// the keyframe's arrival (with a little room for clock reads and loopback delivery).
    /// elapsedMs runs from when the relay took the call (between `callSent` and `callAnswered`)
    /// to when it forwarded the keyframe (after the test began sending, before the viewer had it):
    /// bounds that hold however loaded the machine is, give or take clock rounding.
    static func checkElapsed(
        _ elapsedMs: Int64, callSent: ContinuousClock.Instant, callAnswered: ContinuousClock.Instant, sendingStarted: ContinuousClock.Instant,
        keyframeArrived: ContinuousClock.Instant, _ context: String
    ) {
        let upper = (keyframeArrived - callSent) + .milliseconds(2)
        let lower = (sendingStarted - callAnswered) - .milliseconds(2)
        let elapsed = Duration.milliseconds(elapsedMs)
        #expect(
            elapsed <= upper && elapsed >= lower,
            Comment(rawValue: "\(context): elapsedMs \(elapsedMs), the test saw the keyframe \(keyframeArrived - callSent) after sending the call "
                + "(\(keyframeArrived - callAnswered) after its answer)")
        )
    }

    @Test("a target token for the wrong room or user fails just that target with 1202")
    func wrongTargetToken() async throws {
        try await TestRelay.with { relay in
            let anchor = try await TestPublisher.start(relay, room: "r1", user: "A", profile: Self.profile, videoSSRC: 0xB0B0_0001, audioSSRC: 0xB0B0_0002)
            try anchor.sendFrame(keyframe: true)
            let v2 = try await Viewer.join(relay, room: "r2", user: "v2")
            let v3 = try await Viewer.join(relay, room: "r3", user: "v3")
            let v4 = try await Viewer.join(relay, room: "r4", user: "v4")
            let anchorMark = await anchor.client.eventCount
            let marks = [await v2.mark(), await v3.mark(), await v4.mark()]
            let result: ForwardStreamResult = try await anchor.client.request(
                "startForwardStreamToRooms",
                StartForwardParams(
                    roomId: "r1",
                    targets: [
                        Self.target("r2", user: "A"),
                        ForwardTargetParams(roomId: "r3", token: TestRelay.token(room: "r2", user: "A")),  // minted for another room
                        ForwardTargetParams(roomId: "r4", token: TestRelay.token(room: "r4", user: "v4")),  // minted for another user
                    ]))
            let states = Dictionary(uniqueKeysWithValues: result.infos.map { ($0.roomId, $0) })
            #expect(states["r2"]?.state == ForwardState.success.rawValue && states["r2"]?.error == 0, "\(result)")
            for room in ["r3", "r4"] {
                #expect(
                    states[room]?.state == ForwardState.failure.rawValue && states[room]?.error == ErrorCode.forwardInvalidToken.rawValue, "\(room): \(result)")
            }
            let event = try await ForwardingHelpers.waitForSequence(anchor.client, from: anchorMark, "A: state event", [{ $0.forwardStateChanged != nil }])[0]
                .forwardStateChanged!
            #expect(Set(event.infos) == Set(result.infos), "the event lists the same states: \(event)")

            // The good target works end to end.
            try await ForwardingHelpers.waitForSequence(v2.client, from: marks[0], "v2: A appears", ForwardingHelpers.appeared("A", from: "r1"))
            let ssrcs = try await v2.subscription(of: "A", after: marks[0])
            let goodStart = anchor.sentVideo.count
            try await anchor.sendFrames(10, keyframes: [0])
            try await v2.endpoint.waitForRTP(timeout: .seconds(5), "v2: A's media") { packets in
                packets.contains { $0.ssrc == ssrcs.video && $0.payload == anchor.sentVideo.last!.payload }
            }
            ForwardingHelpers.checkRun(v2.received(ssrcs.video), sent: Array(anchor.sentVideo[goodStart...]), video: true, "v2 video")
            #expect(try await relay.metric("pkrelay_forwards") == 1)

            // The failed targets saw nothing of A.
            for (viewer, mark) in zip([v3, v4], marks.dropFirst()) {
                let events = await viewer.client.events().dropFirst(mark)
                #expect(!events.contains { $0.userJoined?.userId == "A" || $0.userPublishStream?.userId == "A" }, "\(viewer.name): \(events.map(\.text))")
                #expect(viewer.endpoint.receivedRTP().isEmpty, "\(viewer.name) received nothing")
            }

            for viewer in [v2, v3, v4] { await viewer.close() }
            anchor.endpoint.close()
            await anchor.client.close()
        }
    }
}
