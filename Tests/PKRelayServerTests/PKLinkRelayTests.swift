import Foundation
import PKRelayClient
import PKRelayServer
import Protocol
import SecureTransport
import Testing

/// Two-way PK links end to end: each anchor's media reaches the other room's viewers.
@Suite("PK links end to end", .timeLimit(.minutes(1)))
struct PKLinkRelayTests {
    static let profile = SRTPProfile.aeadAES128GCM

    /// Sends frames from both anchors until each viewer has the last packets of the other
    /// room's anchor on the SSRCs it was given; checks each run is clean.
    static func exchangeMedia(
        _ a: TestPublisher, _ b: TestPublisher, v1: Viewer, bInRoom1: TrackSSRCs, v2: Viewer, aInRoom2: TrackSSRCs, _ context: String
    ) async throws {
        let aStart = (a.sentVideo.count, a.sentAudio.count)
        let bStart = (b.sentVideo.count, b.sentAudio.count)
        for index in 0..<20 {
            try a.sendFrame(keyframe: index == 1 || index == 12)
            try b.sendFrame(keyframe: index == 2 || index == 12)
            try await Task.sleep(for: .milliseconds(4))
        }
        for (viewer, publisher, ssrcs, start) in [(v1, b, bInRoom1, bStart), (v2, a, aInRoom2, aStart)] {
            let sentVideo = Array(publisher.sentVideo[start.0...])
            let sentAudio = Array(publisher.sentAudio[start.1...])
            try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "\(context): \(viewer.name) gets the other anchor's media") { packets in
                packets.contains { $0.ssrc == ssrcs.video && $0.payload == sentVideo.last!.payload }
                    && packets.contains { $0.ssrc == ssrcs.audio && $0.payload == sentAudio.last!.payload }
            }
            ForwardingHelpers.checkRun(viewer.received(ssrcs.video), sent: sentVideo, video: true, "\(context): \(viewer.name) linked video")
            ForwardingHelpers.checkRun(viewer.received(ssrcs.audio), sent: sentAudio, video: false, "\(context): \(viewer.name) linked audio")
            #expect(viewer.endpoint.counters.authenticationFailures == 0)
        }
    }

    @Test("connectOtherRoom both ways, disconnect, invitation with autoLink, linked room message, peer leaving")
    func linkLifecycle() async throws {
        try await TestRelay.with { relay in
            let testStart = ContinuousClock.now
            let a = try await TestPublisher.start(relay, room: "r1", user: "A", profile: Self.profile, videoSSRC: 0xC1C1_0001, audioSSRC: 0xC1C1_0002)
            let b = try await TestPublisher.start(relay, room: "r2", user: "B", profile: Self.profile, videoSSRC: 0xC2C2_0001, audioSSRC: 0xC2C2_0002)
            try a.sendFrame(keyframe: true)
            try b.sendFrame(keyframe: true)
            let v1 = try await Viewer.join(relay, room: "r1", user: "v1")
            let v2 = try await Viewer.join(relay, room: "r2", user: "v2")
            var marks = (v1: await v1.mark(), v2: await v2.mark(), a: await a.client.eventCount, b: await b.client.eventCount)

            // A links with B.
            let callSent = ContinuousClock.now
            let answer: ConnectOtherRoomEvent = try await a.client.request("connectOtherRoom", ConnectOtherRoomParams(roomId: "r2", userId: "B"))
            let callAnswered = ContinuousClock.now
            #expect(answer.errorCode == 0 && answer.roomId == "r1" && answer.peerRoomId == "r2" && answer.peerUserId == "B", "\(answer)")
            let aConnected = try await ForwardingHelpers.waitForSequence(a.client, from: marks.a, "A: onConnectOtherRoom", [{ $0.connectOtherRoom != nil }])[0]
                .connectOtherRoom!
            let bConnected = try await ForwardingHelpers.waitForSequence(b.client, from: marks.b, "B: onConnectOtherRoom", [{ $0.connectOtherRoom != nil }])[0]
                .connectOtherRoom!
            #expect(aConnected.errorCode == 0 && aConnected.peerRoomId == "r2" && aConnected.peerUserId == "B", "\(aConnected)")
            #expect(bConnected.errorCode == 0 && bConnected.roomId == "r2" && bConnected.peerRoomId == "r1" && bConnected.peerUserId == "A", "\(bConnected)")
            try await ForwardingHelpers.waitForSequence(v1.client, from: marks.v1, "v1: B appears", ForwardingHelpers.appeared("B", from: "r2"))
            try await ForwardingHelpers.waitForSequence(v2.client, from: marks.v2, "v2: A appears", ForwardingHelpers.appeared("A", from: "r1"))
            let bInRoom1 = try await v1.subscription(of: "B", after: marks.v1)
            let aInRoom2 = try await v2.subscription(of: "A", after: marks.v2)
            #expect(!bInRoom1.all.contains(b.video.ssrc) && !aInRoom2.all.contains(a.video.ssrc) && bInRoom1.all.count == 2 && aInRoom2.all.count == 2)
            #expect(try await relay.metric("pkrelay_links") == 1)
            let sendingStarted = ContinuousClock.now
            try await Self.exchangeMedia(a, b, v1: v1, bInRoom1: bInRoom1, v2: v2, aInRoom2: aInRoom2, "first link")

            // Each anchor hears when its own video became watchable in the other room.
            for (anchor, mark, target, viewer, ssrcs) in [(a, marks.a, "r2", v2, aInRoom2), (b, marks.b, "r1", v1, bInRoom1)] {
                let event = try await ForwardingHelpers.waitForSequence(
                    anchor.client, from: mark, "first keyframe into \(target)",
                    [
                        { $0.forwardFirstKeyframe?.targetRoomId == target }
                    ])[0].forwardFirstKeyframe!
                #expect(event.via == "link" && event.targetRoomId == target, "\(event)")
                #expect(event.elapsedMs >= 0 && Duration.milliseconds(event.elapsedMs) < ContinuousClock.now - testStart, "\(event)")
                if let arrived = viewer.received(ssrcs.video).first?.receivedAt {
                    ForwardingRelayTests.checkElapsed(
                        event.elapsedMs, callSent: callSent, callAnswered: callAnswered, sendingStarted: sendingStarted, keyframeArrived: arrived,
                        "link into \(target)")
                }
            }

            // Disconnect: both mirrors go, both anchors hear it.
            marks = (v1: await v1.mark(), v2: await v2.mark(), a: await a.client.eventCount, b: await b.client.eventCount)
            try await a.client.call("disconnectOtherRoom", LocalRoomParams())
            try await ForwardingHelpers.waitForSequence(v1.client, from: marks.v1, "v1: B goes", ForwardingHelpers.vanished("B"))
            try await ForwardingHelpers.waitForSequence(v2.client, from: marks.v2, "v2: A goes", ForwardingHelpers.vanished("A"))
            for (anchor, mark, peer) in [(a, marks.a, "B"), (b, marks.b, "A")] {
                let event = try await ForwardingHelpers.waitForSequence(
                    anchor.client, from: mark, "onDisconnectOtherRoom", [{ $0.disconnectOtherRoom != nil }])[0].disconnectOtherRoom!
                #expect(event.peerUserId == peer && event.reason == "disconnect" && event.errorCode == 0, "\(event)")
            }
            #expect(try await relay.metric("pkrelay_links") == 0)
            let countsAfterDisconnect = [v1.received(bInRoom1.video).count, v2.received(aInRoom2.video).count]

            // Invitation with autoLink: the accept itself brings the link up.
            marks = (v1: await v1.mark(), v2: await v2.mark(), a: await a.client.eventCount, b: await b.client.eventCount)
            let invited: InviteResult = try await a.client.request("invite", InviteParams(roomId: "r2", userId: "B", payload: "pk?", autoLink: true))
            let received = try await ForwardingHelpers.waitForSequence(b.client, from: marks.b, "B: the invitation", [{ $0.invitationReceived != nil }])[0]
                .invitationReceived!
            #expect(
                received.inviteId == invited.inviteId && received.fromUserId == "A" && received.fromRoomId == "r1" && received.roomId == "r2"
                    && received.autoLink && received.payload == "pk?", "\(received)")
            try await b.client.call("acceptInvitation", InvitationParams(inviteId: invited.inviteId, payload: "ok"))
            // Within the accept's round trip: the link exists and both anchors were told.
            #expect(await relay.server.core.overview().links == 1, "the link is up when the accept is answered")
            // (The relay answers a request before sending the events it caused.)
            let bLinked = try await ForwardingHelpers.waitForSequence(
                b.client, from: marks.b, "B: accepted, then linked",
                [
                    {
                        $0.invitationStateChanged.map {
                            $0.inviteId == invited.inviteId && $0.state == InvitationState.accepted.rawValue && $0.side == "callee"
                        } ?? false
                    },
                    { $0.connectOtherRoom?.errorCode == 0 },
                ])
            #expect(bLinked[1].connectOtherRoom?.peerUserId == "A" && bLinked[1].connectOtherRoom?.peerRoomId == "r1", "\(bLinked[1].text)")
            let aAccepted = try await ForwardingHelpers.waitForSequence(
                a.client, from: marks.a, "A: accepted, then linked",
                [
                    {
                        $0.invitationStateChanged.map {
                            $0.inviteId == invited.inviteId && $0.state == InvitationState.accepted.rawValue && $0.side == "caller"
                        } ?? false
                    },
                    { $0.connectOtherRoom?.errorCode == 0 },
                ])
            #expect(aAccepted[0].invitationStateChanged?.payload == "ok" && aAccepted[1].connectOtherRoom?.peerUserId == "B")
            try await ForwardingHelpers.waitForSequence(v1.client, from: marks.v1, "v1: B appears again", ForwardingHelpers.appeared("B", from: "r2"))
            try await ForwardingHelpers.waitForSequence(v2.client, from: marks.v2, "v2: A appears again", ForwardingHelpers.appeared("A", from: "r1"))
            let bInRoom1Again = try await v1.subscription(of: "B", after: marks.v1)
            let aInRoom2Again = try await v2.subscription(of: "A", after: marks.v2)
            try await Self.exchangeMedia(a, b, v1: v1, bInRoom1: bInRoom1Again, v2: v2, aInRoom2: aInRoom2Again, "invited link")
            if bInRoom1Again.video != bInRoom1.video {
                #expect(v1.received(bInRoom1.video).count == countsAfterDisconnect[0], "v1: nothing more on the first link's SSRC")
            }
            if aInRoom2Again.video != aInRoom2.video {
                #expect(v2.received(aInRoom2.video).count == countsAfterDisconnect[1], "v2: nothing more on the first link's SSRC")
            }

            // A room message for the linked rooms reaches both audiences.
            marks = (v1: await v1.mark(), v2: await v2.mark(), a: await a.client.eventCount, b: await b.client.eventCount)
            try await a.client.call("sendRoomMessage", SendRoomMessageParams(roomId: "r1", message: "score 3:2", toLinkedRooms: true))
            let inRoom1 = try await ForwardingHelpers.waitForSequence(v1.client, from: marks.v1, "v1: the room message", [{ $0.roomMessage != nil }])[0]
                .roomMessage!
            let inRoom2 = try await ForwardingHelpers.waitForSequence(v2.client, from: marks.v2, "v2: the room message", [{ $0.roomMessage != nil }])[0]
                .roomMessage!
            #expect(inRoom1 == MessageReceivedEvent(roomId: "r1", fromRoomId: "r1", userId: "A", message: "score 3:2", binary: nil))
            #expect(inRoom2 == MessageReceivedEvent(roomId: "r2", fromRoomId: "r1", userId: "A", message: "score 3:2", binary: nil))

            // B leaves its room: the link ends, A hears peerLeft, both mirrors go.
            marks = (v1: await v1.mark(), v2: await v2.mark(), a: await a.client.eventCount, b: await b.client.eventCount)
            try await b.client.call("leaveRoom", RoomParams(roomId: "r2"))
            let ended = try await ForwardingHelpers.waitForSequence(a.client, from: marks.a, "A: onDisconnectOtherRoom", [{ $0.disconnectOtherRoom != nil }])[0]
                .disconnectOtherRoom!
            #expect(ended.reason == "peerLeft" && ended.peerUserId == "B" && ended.peerRoomId == "r2" && ended.roomId == "r1", "\(ended)")
            try await ForwardingHelpers.waitForSequence(v1.client, from: marks.v1, "v1: B goes", ForwardingHelpers.vanished("B"))
            try await ForwardingHelpers.waitForSequence(v2.client, from: marks.v2, "v2: A goes", ForwardingHelpers.vanished("A"))
            let facts = try await ForwardingHelpers.waitForOverview(relay, "no links") { $0.links == 0 }
            #expect(facts.forwardTargets == 0 && facts.publications == 1, "only A's own publication is left: \(facts)")

            for viewer in [v1, v2] { await viewer.close() }
            for anchor in [a, b] {
                anchor.endpoint.close()
                await anchor.client.close()
            }
        }
    }
}
