import Foundation
import MediaPlane
import PKRelayClient
import PKRelayServer
import PostgresTestSupport
import Protocol
import SecureTransport
import Testing

/// Forwards between rooms on different cluster nodes, through the unchanged client API: the
/// forwarding anchor's node verifies each target with the node serving it, the anchor's tracks
/// cross the SRTP pipe between the two nodes once, and the events on both sides are those of a
/// forward on one node.
@Suite(
    "Forwards across cluster nodes", .serialized, .timeLimit(.minutes(3)),
    .enabled(if: PostgresTestServer.isAvailable, "PostgreSQL is not installed: cluster forward tests skipped"))
struct ClusterForwardTests {
    static let profile = SRTPProfile.aeadAES128GCM

    /// Waits until `relay` holds its lease (joins before that are answered 4031).
    static func waitUntilServing(_ relay: TestRelay) async throws {
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            let stats = try await AdminHTTPClient.send(
                port: relay.ports.admin, method: "GET", path: "/admin/v1/stats", token: AdminAPITests.adminToken(), body: nil)
            if (stats.json?["cluster"] as? [String: Any])?["serving"] as? Bool == true { return }
            guard ContinuousClock.now < deadline else { throw TimeoutError(duration: .seconds(15), what: "the node to hold a lease") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// A track crosses the pipe once a subscriber on the target node is bound to it, a round trip
    /// after the subscription: sends keyframes until every viewer has `publisher`'s video, so that
    /// what a test measures next starts with the pipe carrying.
    static func warmUp(_ publisher: TestPublisher, _ viewers: [(Viewer, UInt32?)]) async throws {
        let before = viewers.map { $0.0.received($0.1).count }
        let deadline = ContinuousClock.now + .seconds(5)
        while zip(viewers, before).contains(where: { $0.0.received($0.1).count <= $1 }) {
            guard ContinuousClock.now < deadline else { throw TimeoutError(duration: .seconds(5), what: "the publisher's video to cross the pipe") }
            try publisher.sendFrame(keyframe: true)
            try await Task.sleep(for: .milliseconds(40))
        }
        // What the last keyframes carried is still on its way; let it land before counting.
        try await Task.sleep(for: .milliseconds(100))
    }

    /// Two nodes, a and b, on one private database, both serving; `edges` sets cluster.edges on both.
    static func withTwoNodes(leaseSeconds: Int = 60, edges: Bool = false, _ body: (TestRelay, TestRelay) async throws -> Void) async throws {
        try await PostgresTestServer.with { database in
            try await TestRelay.with({ configuration in
                ClusterRelayTests.node("a", on: database)(&configuration)
                configuration.cluster.leaseSeconds = leaseSeconds
                configuration.cluster.edges = edges
            }) { relayA in
                try await TestRelay.with({ configuration in
                    ClusterRelayTests.node("b", on: database)(&configuration)
                    configuration.cluster.leaseSeconds = leaseSeconds
                    configuration.cluster.edges = edges
                }) { relayB in
                    try await Self.waitUntilServing(relayA)
                    try await Self.waitUntilServing(relayB)
                    try await body(relayA, relayB)
                }
            }
        }
    }

    @Test("a forward into two rooms on another node: the same events, media crossing once, pause, resume, stop")
    func forwardAcrossNodes() async throws {
        try await Self.withTwoNodes { relayA, relayB in
            // The anchor's room lives on a; both target rooms on b (each placed by its first join).
            let anchor = try await TestPublisher.start(relayA, room: "r1", user: "A", profile: Self.profile, videoSSRC: 0xB0B0_0001, audioSSRC: 0xB0B0_0002)
            try anchor.sendFrame(keyframe: true)
            let v2 = try await Viewer.join(relayB, room: "r2", user: "v2")
            let v3 = try await Viewer.join(relayB, room: "r3", user: "v3")
            let viewers = [v2, v3]
            let marks = [await v2.mark(), await v3.mark()]
            let sentBeforeForward = anchor.sentVideo.count + anchor.sentAudio.count
            let anchorMark = await anchor.client.eventCount

            let started: ForwardStreamResult = try await anchor.client.request(
                "startForwardStreamToRooms",
                StartForwardParams(
                    roomId: "r1", targets: [ForwardingRelayTests.target("r2", user: "A"), ForwardingRelayTests.target("r3", user: "A")]))
            #expect(started.infos.map(\.roomId).sorted() == ["r2", "r3"])
            #expect(started.infos.allSatisfy { $0.state == ForwardState.success.rawValue && $0.error == 0 }, "\(started)")
            let stateEvent = try await ForwardingHelpers.waitForSequence(
                anchor.client, from: anchorMark, "A: onForwardStreamStateChanged", [{ $0.forwardStateChanged != nil }])[0].forwardStateChanged!
            #expect(Dictionary(uniqueKeysWithValues: stateEvent.infos.map { ($0.roomId, $0.state) }) == ["r2": 1, "r3": 1], "\(stateEvent)")

            var ssrcs: [TrackSSRCs] = []
            for (viewer, mark) in zip(viewers, marks) {
                let events = try await ForwardingHelpers.waitForSequence(
                    viewer.client, from: mark, "\(viewer.name): A appears", ForwardingHelpers.appeared("A", from: "r1"))
                #expect(events[0].userJoined?.roomId == viewer.roomId && events[0].userJoined?.role == .anchor)
                #expect(events[1].userPublishStream?.mediaType == MediaType.audioAndVideo)
                ssrcs.append(try await viewer.subscription(of: "A", after: mark))
            }

            // Media: once the pipe carries, an unbroken run on each viewer's own SSRCs.
            try await Self.warmUp(anchor, zip(viewers, ssrcs).map { ($0, $1.video) })
            let counts = zip(viewers, ssrcs).map { ($0.received($1.video).count, $0.received($1.audio).count) }
            let videoStart = anchor.sentVideo.count
            let audioStart = anchor.sentAudio.count
            try await anchor.sendFrames(30, keyframes: [0, 20])
            let sentVideo = Array(anchor.sentVideo[videoStart...])
            let sentAudio = Array(anchor.sentAudio[audioStart...])
            for ((viewer, tracks), count) in zip(zip(viewers, ssrcs), counts) {
                try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "\(viewer.name): A's last packets across nodes") { packets in
                    packets.contains { $0.ssrc == tracks.video && $0.payload == sentVideo.last!.payload }
                        && packets.contains { $0.ssrc == tracks.audio && $0.payload == sentAudio.last!.payload }
                }
                let video = Array(viewer.received(tracks.video).dropFirst(count.0))
                ForwardingHelpers.checkRun(video, sent: sentVideo, video: true, "\(viewer.name) video")
                #expect(video.count == sentVideo.count, "\(viewer.name): every video packet of the run")
                ForwardingHelpers.checkRun(Array(viewer.received(tracks.audio).dropFirst(count.1)), sent: sentAudio, video: false, "\(viewer.name) audio")
                #expect(viewer.endpoint.counters.authenticationFailures == 0)
            }
            // Each track crossed once for both rooms: b took at least the run (its counters come
            // from a report about once a second, so wait for it), and less than a copy per room
            // would be (everything sent since the forward, plus room for RTCP).
            let run = UInt64(sentVideo.count + sentAudio.count)
            let crossed = try await relayB.waitForMetric("pkrelay_packets_in_total") { $0 >= run }
            let sinceForward = UInt64(anchor.sentVideo.count + anchor.sentAudio.count - sentBeforeForward)
            #expect(
                crossed <= sinceForward + 30 && sinceForward + 30 < 2 * run,
                "b took \(crossed) packets for \(sinceForward) sent since the forward (run \(run)): one copy per node, not per room")

            // One node-to-node connection, seen from both nodes.
            for (relay, peer) in [(relayA, "b"), (relayB, "a")] {
                let stats = try await AdminHTTPClient.send(
                    port: relay.ports.admin, method: "GET", path: "/admin/v1/stats", token: AdminAPITests.adminToken(), body: nil)
                #expect((stats.json?["cluster"] as? [String: Any])?["peers"] as? [String] == [peer], "\(stats.body)")
                #expect(try await relay.metric("pkrelay_cluster_peers") == 1)
            }

            // A viewer's keyframe request crosses back: the anchor gets a PLI for its own SSRC
            // (past the keyframe throttle's quiet period after the last keyframe).
            try await Task.sleep(for: .milliseconds(1200))
            let plisBefore = anchor.pictureLossIndications(for: anchor.video.ssrc)
            try v2.endpoint.sendPictureLossIndication(senderSSRC: 0xB0B0_00FF, mediaSSRC: try #require(ssrcs[0].video))
            _ = try await anchor.endpoint.waitForRTCP(timeout: .seconds(3), "a viewer's PLI from the other node") { message in
                message.isPictureLossIndication && anchor.pictureLossIndications(for: anchor.video.ssrc) > plisBefore
            }

            // A republish on node a (new SSRCs, sequence numbers far away, timestamps going back):
            // the viewer on node b keeps its SSRC and its video continues at +1 from a keyframe.
            let lastVideo = try #require(v2.received(ssrcs[0].video).last)
            let republishMark = await v2.mark()
            try await anchor.client.call("unpublishStream", StreamParams(roomId: "r1", streamIndex: .main))
            try await ForwardingHelpers.waitForSequence(v2.client, from: republishMark, "v2: A unpublishes", [{ $0.userUnpublishStream?.userId == "A" }])
            anchor.video = VP8Packetizer(
                ssrc: 0xB0B0_0011, initialSequenceNumber: anchor.video.sequenceNumber &+ 30000, initialTimestamp: anchor.video.timestamp &- 0x3000_0000)
            anchor.audio = OpusLikePacketizer(
                ssrc: 0xB0B0_0012, initialSequenceNumber: anchor.audio.sequenceNumber &+ 25000, initialTimestamp: anchor.audio.timestamp &- 0x3000_0000)
            try await anchor.publish()
            try await ForwardingHelpers.waitForSequence(v2.client, from: republishMark, "v2: A publishes again", [{ $0.userPublishStream?.userId == "A" }])
            try await Self.warmUp(anchor, [(v2, ssrcs[0].video)])
            try await anchor.sendFrames(10, keyframes: [1])
            try await v2.endpoint.waitForRTP(timeout: .seconds(5), "v2: A's republished video on the same SSRC") { packets in
                packets.contains { $0.ssrc == ssrcs[0].video && $0.payload == anchor.sentVideo.last!.payload }
            }
            let afterRepublish = Array(v2.received(ssrcs[0].video).drop { $0 != lastVideo }.dropFirst())
            #expect(afterRepublish.first?.sequenceNumber == lastVideo.sequenceNumber &+ 1, "video continues at +1 across the republish")
            #expect(afterRepublish.first.map { VP8Packetizer.isKeyframe(payload: $0.payload) } == true, "and restarts at a keyframe")
            #expect(MediaHelpers.isAfter(afterRepublish.first?.timestamp ?? 0, lastVideo.timestamp), "its timestamp moves forward")
            #expect(MediaHelpers.isContinuous(afterRepublish.map(\.sequenceNumber)), "v2: one continuous sequence after the republish")

            // The first keyframe is reported per target room, as on one node.
            for room in ["r2", "r3"] {
                let event = try await ForwardingHelpers.waitForSequence(
                    anchor.client, from: anchorMark, "A: first keyframe for \(room)",
                    [
                        { $0.forwardFirstKeyframe?.targetRoomId == room }
                    ])[0].forwardFirstKeyframe!
                #expect(event.roomId == "r1" && event.via == "forward" && event.elapsedMs >= 0, "\(event)")
            }

            // Pause: A leaves both rooms; resume: it is back with media.
            let pauseMarks = [await v2.mark(), await v3.mark()]
            let _: ForwardStreamResult = try await anchor.client.request("pauseForwardStreamToAllRooms", RoomParams(roomId: "r1"))
            for (viewer, mark) in zip(viewers, pauseMarks) {
                try await ForwardingHelpers.waitForSequence(viewer.client, from: mark, "\(viewer.name): A goes on pause", ForwardingHelpers.vanished("A"))
            }
            let resumeMarks = [await v2.mark(), await v3.mark()]
            let _: ForwardStreamResult = try await anchor.client.request("resumeForwardStreamToAllRooms", RoomParams(roomId: "r1"))
            var resumed: [TrackSSRCs] = []
            for (viewer, mark) in zip(viewers, resumeMarks) {
                try await ForwardingHelpers.waitForSequence(viewer.client, from: mark, "\(viewer.name): A is back", ForwardingHelpers.appeared("A", from: "r1"))
                resumed.append(try await viewer.subscription(of: "A", after: mark))
            }
            try await Self.warmUp(anchor, zip(viewers, resumed).map { ($0, $1.video) })
            let resumedCounts = zip(viewers, resumed).map { $0.received($1.video).count }
            let resumeStart = anchor.sentVideo.count
            try await anchor.sendFrames(10, keyframes: [0])
            for ((viewer, tracks), count) in zip(zip(viewers, resumed), resumedCounts) {
                try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "\(viewer.name): A's packets after resume") { packets in
                    packets.contains { $0.ssrc == tracks.video && $0.payload == anchor.sentVideo.last!.payload }
                }
                ForwardingHelpers.checkRun(
                    Array(viewer.received(tracks.video).dropFirst(count)), sent: Array(anchor.sentVideo[resumeStart...]), video: true,
                    "\(viewer.name) resumed video")
            }

            // Stop: unpublish and leave in both rooms, targets Idle.
            let stopMarks = [await v2.mark(), await v3.mark()]
            let stopped: ForwardStreamResult = try await anchor.client.request("stopForwardStreamToRooms", RoomParams(roomId: "r1"))
            #expect(stopped.infos.allSatisfy { $0.state == ForwardState.idle.rawValue } && stopped.infos.count == 2, "\(stopped)")
            for (viewer, mark) in zip(viewers, stopMarks) {
                try await ForwardingHelpers.waitForSequence(viewer.client, from: mark, "\(viewer.name): A stops", ForwardingHelpers.vanished("A"))
            }
            for viewer in viewers { await viewer.close() }
            anchor.endpoint.close()
            await anchor.client.close()
        }
    }

    @Test("the target's node checks tokens and same-userId users; a user joining there interrupts the forward")
    func targetNodeDecides() async throws {
        try await Self.withTwoNodes { relayA, relayB in
            let anchor = try await TestPublisher.start(relayA, room: "home", user: "A", profile: Self.profile, videoSSRC: 0xC0C0_0001, audioSSRC: 0xC0C0_0002)
            let fan = try await Viewer.join(relayB, room: "stage", user: "fan")
            let twin = try await relayB.join(room: "busy", user: "A")

            // A token for the wrong room, and a room where the same userId is: each fails alone,
            // with the codes of one node (1202, 1204).
            let result: ForwardStreamResult = try await anchor.client.request(
                "startForwardStreamToRooms",
                StartForwardParams(
                    roomId: "home",
                    targets: [
                        ForwardTargetParams(roomId: "stage", token: TestRelay.token(room: "elsewhere", user: "A")),
                        ForwardingRelayTests.target("busy", user: "A"),
                    ]))
            let byRoom = Dictionary(uniqueKeysWithValues: result.infos.map { ($0.roomId, $0) })
            #expect(byRoom["stage"]?.error == ErrorCode.forwardInvalidToken.rawValue, "\(result)")
            #expect(byRoom["busy"]?.error == ErrorCode.forwardRemoteKicked.rawValue, "\(result)")

            // A good target, then a real user with the forwarded userId joins the target room:
            // the forward ends with 1204 and Interrupt, the room sees the mirror leave first.
            let mark = await fan.mark()
            let _: ForwardStreamResult = try await anchor.client.request(
                "startForwardStreamToRooms",
                StartForwardParams(
                    roomId: "home",
                    targets: [
                        ForwardingRelayTests.target("stage", user: "A")
                    ]))
            try await ForwardingHelpers.waitForSequence(fan.client, from: mark, "fan: A appears", ForwardingHelpers.appeared("A", from: "home"))
            let anchorMark = await anchor.client.eventCount
            let real = try await relayB.join(room: "stage", user: "A")
            let ended = try await ForwardingHelpers.waitForSequence(
                anchor.client, from: anchorMark, "A: the forward into stage ends",
                [
                    { $0.forwardStateChanged?.infos.first?.roomId == "stage" },
                    { $0.forwardStreamEvent?.infos.first?.event == ForwardEvent.interrupt.rawValue },
                ])
            let info = try #require(ended[0].forwardStateChanged?.infos.first)
            #expect(info.state == ForwardState.failure.rawValue && info.error == ErrorCode.forwardRemoteKicked.rawValue, "\(info)")
            await real.close()
            await twin.close()
            await fan.close()
            anchor.endpoint.close()
            await anchor.client.close()
        }
    }

    @Test("a target node that shuts down ends the forward into its room with 1203; its viewers are gone with it")
    func targetNodeShutsDown() async throws {
        try await PostgresTestServer.with { database in
            try await TestRelay.with(ClusterRelayTests.node("a", on: database)) { relayA in
                let relayB = try await TestRelay.start(ClusterRelayTests.node("b", on: database))
                try await Self.waitUntilServing(relayA)
                try await Self.waitUntilServing(relayB)
                let anchor = try await TestPublisher.start(
                    relayA, room: "home", user: "A", profile: Self.profile, videoSSRC: 0xD0D0_0001, audioSSRC: 0xD0D0_0002)
                let fan = try await Viewer.join(relayB, room: "away", user: "fan")
                let mark = await fan.mark()
                let _: ForwardStreamResult = try await anchor.client.request(
                    "startForwardStreamToRooms",
                    StartForwardParams(
                        roomId: "home",
                        targets: [
                            ForwardingRelayTests.target("away", user: "A")
                        ]))
                try await ForwardingHelpers.waitForSequence(fan.client, from: mark, "fan: A appears", ForwardingHelpers.appeared("A", from: "home"))
                let anchorMark = await anchor.client.eventCount
                // b drains: its rooms are dismissed, and a hears that the target room is gone.
                await relayB.stop()
                // The forward's own Success may reach the anchor after the fan saw A: it is skipped.
                let ended = try await ForwardingHelpers.waitForSequence(
                    anchor.client, from: anchorMark, "A: the forward into away fails", timeout: .seconds(10),
                    [
                        { $0.forwardStateChanged?.infos.first.map { $0.roomId == "away" && $0.state != ForwardState.success.rawValue } ?? false }
                    ])
                let info = try #require(ended[0].forwardStateChanged?.infos.first)
                #expect(info.state == ForwardState.failure.rawValue && info.error == ErrorCode.forwardResponse.rawValue, "\(info)")
                // b left the cluster as it stopped (its lease and placements went at once, not after
                // the minute's lease): the room is placed on a now.
                #expect(try await ClusterRelayTests.placement(of: "away", asking: relayA)["nodeId"] as? String == "a")
                await fan.close()
                anchor.endpoint.close()
                await anchor.client.close()
            }
        }
    }

    /// Node b in this process, on the 3 s lease of the node processes, so that it gives up on a
    /// peer after as long as the database gives up on a node.
    static func shortLeaseNode(_ database: PostgresTestServer) -> (inout RelayConfiguration) -> Void {
        { configuration in
            ClusterRelayTests.node("b", on: database, renewSeconds: 1)(&configuration)
            configuration.cluster.leaseSeconds = 3
        }
    }

    @Test(
        "a target node killed (SIGKILL) or hung (SIGSTOP): the forwarding user hears Disconnected, then Failure 1203 after the lease",
        arguments: [SIGKILL, SIGSTOP])
    func targetNodeLost(signal: Int32) async throws {
        try await PostgresTestServer.with { database in
            try await ClusterRelayTests.withNodeProcess(on: database) { process, url in
                try await TestRelay.with(Self.shortLeaseNode(database)) { relayB in
                    try await Self.waitUntilServing(relayB)
                    let fan = try await ClusterRelayTests.join(url: url, room: "away", user: "fan")
                    let anchor = try await TestPublisher.start(
                        relayB, room: "home", user: "A", profile: Self.profile, videoSSRC: 0xE0E0_0001, audioSSRC: 0xE0E0_0002)
                    let started: ForwardStreamResult = try await anchor.client.request(
                        "startForwardStreamToRooms",
                        StartForwardParams(
                            roomId: "home",
                            targets: [
                                ForwardingRelayTests.target("away", user: "A")
                            ]))
                    #expect(started.infos.first?.state == ForwardState.success.rawValue, "\(started)")
                    try await ForwardingHelpers.waitForSequence(
                        fan, from: 0, "fan: A appears on the node process", ForwardingHelpers.appeared("A", from: "home"))

                    let mark = await anchor.client.eventCount
                    let killedAt = ContinuousClock.now
                    kill(process.processIdentifier, signal)
                    try await ForwardingHelpers.waitForSequence(
                        anchor.client, from: mark, "A: Disconnected", timeout: .seconds(10),
                        [
                            { $0.forwardStreamEvent?.infos == [ForwardStreamEventInfo(roomId: "away", event: ForwardEvent.disconnected.rawValue)] }
                        ])
                    let disconnected = ContinuousClock.now - killedAt
                    let events = try await ForwardingHelpers.waitForSequence(
                        anchor.client, from: mark, "A: Failure 1203", timeout: .seconds(10),
                        [
                            { $0.forwardStateChanged?.infos.first.map { $0.roomId == "away" && $0.state != ForwardState.success.rawValue } ?? false }
                        ])
                    let info = try #require(events[0].forwardStateChanged?.infos.first)
                    #expect(info.state == ForwardState.failure.rawValue && info.error == ErrorCode.forwardResponse.rawValue, "\(info)")
                    let name = signal == SIGKILL ? "SIGKILL" : "SIGSTOP"
                    print(
                        "cluster: forward into a \(name) node's room: Disconnected \(disconnected), Failure 1203 "
                            + "\(ContinuousClock.now - killedAt) after the signal (lease 3 s)"
                    )
                    // The forward is over: stopping it again is the usual "not started" answer.
                    do {
                        let _: ForwardStreamResult = try await anchor.client.request("stopForwardStreamToRooms", RoomParams(roomId: "home"))
                        Issue.record("a forward whose only target failed was still running")
                    } catch ControlClientError.relay(let error) {
                        #expect(error.code == .forwardNotStarted, "\(error)")
                    }
                    await fan.close()
                    anchor.endpoint.close()
                    await anchor.client.close()
                }
            }
        }
    }

    @Test("a source node hung with SIGSTOP: the target room sees the mirror leave (Dropped) once the connection is silent")
    func sourceNodeStopped() async throws {
        try await PostgresTestServer.with { database in
            try await ClusterRelayTests.withNodeProcess(on: database) { process, url in
                try await TestRelay.with(Self.shortLeaseNode(database)) { relayB in
                    try await Self.waitUntilServing(relayB)
                    let viewer = try await Viewer.join(relayB, room: "away", user: "viewer")
                    let anchor = try await ClusterRelayTests.join(url: url, room: "home", user: "A")
                    let started: ForwardStreamResult = try await anchor.request(
                        "startForwardStreamToRooms",
                        StartForwardParams(
                            roomId: "home",
                            targets: [
                                ForwardingRelayTests.target("away", user: "A")
                            ]))
                    #expect(started.infos.first?.state == ForwardState.success.rawValue, "\(started)")
                    try await ForwardingHelpers.waitForSequence(
                        viewer.client, from: 0, "viewer: A appears from the node process",
                        [
                            { $0.userJoined?.userId == "A" && $0.userJoined?.forwardedFrom == "home" }
                        ])

                    let mark = await viewer.mark()
                    let stoppedAt = ContinuousClock.now
                    kill(process.processIdentifier, SIGSTOP)
                    let left = try await ForwardingHelpers.waitForSequence(
                        viewer.client, from: mark, "viewer: A leaves", timeout: .seconds(10),
                        [
                            { $0.userLeave?.userId == "A" }
                        ])
                    #expect(left[0].userLeave?.reason == .dropped, "as for a dropped connection: \(left[0].text)")
                    let detected = ContinuousClock.now - stoppedAt
                    #expect(detected >= .seconds(2), "not before the connection was silent for a while: \(detected)")
                    print("cluster: a hung source node's mirror left its target room \(detected) after SIGSTOP")
                    kill(process.processIdentifier, SIGCONT)
                    await anchor.close()
                    await viewer.close()
                }
            }
        }
    }

    /// Node b in this process on a 10 s lease, longer than the hang of the tests below.
    static func tenSecondLeaseNode(_ database: PostgresTestServer) -> (inout RelayConfiguration) -> Void {
        { configuration in
            ClusterRelayTests.node("b", on: database, renewSeconds: 1)(&configuration)
            configuration.cluster.leaseSeconds = 10
        }
    }

    @Test("a target node hung for less than its lease (SIGSTOP 6 s): woken, the PK comes back: Connected, and the mirror shown again")
    func targetNodeHungBriefly() async throws {
        try await PostgresTestServer.with { database in
            try await ClusterRelayTests.withNodeProcess(on: database, leaseSeconds: 10) { process, url in
                try await TestRelay.with(Self.tenSecondLeaseNode(database)) { relayB in
                    try await Self.waitUntilServing(relayB)
                    let fan = try await ClusterRelayTests.join(url: url, room: "away", user: "fan")
                    let anchor = try await TestPublisher.start(
                        relayB, room: "home", user: "A", profile: Self.profile, videoSSRC: 0xE1E1_0001, audioSSRC: 0xE1E1_0002)
                    let started: ForwardStreamResult = try await anchor.client.request(
                        "startForwardStreamToRooms",
                        StartForwardParams(
                            roomId: "home",
                            targets: [
                                ForwardingRelayTests.target("away", user: "A")
                            ]))
                    #expect(started.infos.first?.state == ForwardState.success.rawValue, "\(started)")
                    try await ForwardingHelpers.waitForSequence(fan, from: 0, "fan: A appears", ForwardingHelpers.appeared("A", from: "home"))

                    let (fanMark, anchorMark) = (await fan.eventCount, await anchor.client.eventCount)
                    kill(process.processIdentifier, SIGSTOP)
                    let stoppedAt = ContinuousClock.now
                    try await ForwardingHelpers.waitForSequence(
                        anchor.client, from: anchorMark, "A: Disconnected", timeout: .seconds(5),
                        [
                            { $0.forwardStreamEvent?.infos == [ForwardStreamEventInfo(roomId: "away", event: ForwardEvent.disconnected.rawValue)] }
                        ])
                    // 6 s in all, well within the 10 s lease (less its 1 s margin and a renewal interval).
                    try await Task.sleep(until: stoppedAt + .seconds(6))
                    kill(process.processIdentifier, SIGCONT)
                    let wokenAt = ContinuousClock.now
                    try await ForwardingHelpers.waitForSequence(
                        anchor.client, from: anchorMark, "A: Connected once the node woke", timeout: .seconds(10),
                        [
                            { $0.forwardStreamEvent?.infos.first?.event == ForwardEvent.disconnected.rawValue },
                            { $0.forwardStreamEvent?.infos == [ForwardStreamEventInfo(roomId: "away", event: ForwardEvent.connected.rawValue)] },
                        ])
                    let seen = try await ForwardingHelpers.waitForSequence(
                        fan, from: fanMark, "fan: A leaves, then is shown again", timeout: .seconds(10),
                        [
                            { $0.userLeave?.userId == "A" },
                            { $0.userJoined?.userId == "A" && $0.userJoined?.forwardedFrom == "home" },
                            { $0.userPublishStream?.userId == "A" },
                        ])
                    #expect(seen[0].userLeave?.reason == .dropped, "\(seen[0].text)")
                    print("cluster: a target node hung 6 s: the mirror was shown again \(ContinuousClock.now - wokenAt) after SIGCONT")
                    let events = await anchor.client.events()
                    #expect(events.allSatisfy { $0.forwardStateChanged?.infos.first?.state != ForwardState.failure.rawValue }, "the target never failed")
                    await fan.close()
                    anchor.endpoint.close()
                    await anchor.client.close()
                }
            }
        }
    }

    @Test("a source node hung for less than its lease (SIGSTOP 6 s): the mirror leaves, and once the node wakes it is shown again")
    func sourceNodeHungBriefly() async throws {
        try await PostgresTestServer.with { database in
            try await ClusterRelayTests.withNodeProcess(on: database, leaseSeconds: 10) { process, url in
                try await TestRelay.with(Self.tenSecondLeaseNode(database)) { relayB in
                    try await Self.waitUntilServing(relayB)
                    let viewer = try await Viewer.join(relayB, room: "away", user: "viewer")
                    let anchor = try await ClusterRelayTests.join(url: url, room: "home", user: "A")
                    let started: ForwardStreamResult = try await anchor.request(
                        "startForwardStreamToRooms",
                        StartForwardParams(
                            roomId: "home",
                            targets: [
                                ForwardingRelayTests.target("away", user: "A")
                            ]))
                    #expect(started.infos.first?.state == ForwardState.success.rawValue, "\(started)")
                    try await ForwardingHelpers.waitForSequence(
                        viewer.client, from: 0, "viewer: A appears from the node process",
                        [
                            { $0.userJoined?.userId == "A" && $0.userJoined?.forwardedFrom == "home" }
                        ])

                    let (viewerMark, anchorMark) = (await viewer.mark(), await anchor.eventCount)
                    kill(process.processIdentifier, SIGSTOP)
                    let stoppedAt = ContinuousClock.now
                    let left = try await ForwardingHelpers.waitForSequence(
                        viewer.client, from: viewerMark, "viewer: A leaves", timeout: .seconds(5),
                        [
                            { $0.userLeave?.userId == "A" }
                        ])
                    #expect(left[0].userLeave?.reason == .dropped, "\(left[0].text)")
                    // 6 s in all, well within the 10 s lease (less its 1 s margin and a renewal interval).
                    try await Task.sleep(until: stoppedAt + .seconds(6))
                    kill(process.processIdentifier, SIGCONT)
                    let wokenAt = ContinuousClock.now
                    // (A publishes nothing here: its mirror is the user alone.)
                    try await ForwardingHelpers.waitForSequence(
                        viewer.client, from: viewerMark, "viewer: A shown again once its node woke", timeout: .seconds(10),
                        [
                            { $0.userLeave?.userId == "A" },
                            { $0.userJoined?.userId == "A" && $0.userJoined?.forwardedFrom == "home" },
                        ])
                    print("cluster: a source node hung 6 s: the mirror was shown again \(ContinuousClock.now - wokenAt) after SIGCONT")
                    try await ForwardingHelpers.waitForSequence(
                        anchor, from: anchorMark, "A: Disconnected, then Connected", timeout: .seconds(10),
                        [
                            { $0.forwardStreamEvent?.infos.first?.event == ForwardEvent.disconnected.rawValue },
                            { $0.forwardStreamEvent?.infos.first?.event == ForwardEvent.connected.rawValue },
                        ])
                    #expect(
                        await anchor.events().allSatisfy { $0.forwardStateChanged?.infos.first?.state != ForwardState.failure.rawValue },
                        "the target never failed")
                    await anchor.close()
                    await viewer.close()
                }
            }
        }
    }

    @Test("a PK link between anchors on two nodes: both hear onConnectOtherRoom, media both ways, a mute, disconnect, peer leaving")
    func linkAcrossNodes() async throws {
        try await Self.withTwoNodes { relayA, relayB in
            let a = try await TestPublisher.start(relayA, room: "r1", user: "A", profile: Self.profile, videoSSRC: 0xF1F1_0001, audioSSRC: 0xF1F1_0002)
            let b = try await TestPublisher.start(relayB, room: "r2", user: "B", profile: Self.profile, videoSSRC: 0xF2F2_0001, audioSSRC: 0xF2F2_0002)
            try a.sendFrame(keyframe: true)
            try b.sendFrame(keyframe: true)
            let v1 = try await Viewer.join(relayA, room: "r1", user: "v1")
            let v2 = try await Viewer.join(relayB, room: "r2", user: "v2")
            var marks = (v1: await v1.mark(), v2: await v2.mark(), a: await a.client.eventCount, b: await b.client.eventCount)

            let answer: ConnectOtherRoomEvent = try await a.client.request("connectOtherRoom", ConnectOtherRoomParams(roomId: "r2", userId: "B"))
            #expect(answer.errorCode == 0 && answer.roomId == "r1" && answer.peerRoomId == "r2" && answer.peerUserId == "B", "\(answer)")
            let bConnected = try await ForwardingHelpers.waitForSequence(b.client, from: marks.b, "B: onConnectOtherRoom", [{ $0.connectOtherRoom != nil }])[0]
                .connectOtherRoom!
            #expect(bConnected.errorCode == 0 && bConnected.roomId == "r2" && bConnected.peerRoomId == "r1" && bConnected.peerUserId == "A", "\(bConnected)")
            try await ForwardingHelpers.waitForSequence(v1.client, from: marks.v1, "v1: B appears", ForwardingHelpers.appeared("B", from: "r2"))
            try await ForwardingHelpers.waitForSequence(v2.client, from: marks.v2, "v2: A appears", ForwardingHelpers.appeared("A", from: "r1"))
            let bInRoom1 = try await v1.subscription(of: "B", after: marks.v1)
            let aInRoom2 = try await v2.subscription(of: "A", after: marks.v2)
            try await Self.warmUp(a, [(v2, aInRoom2.video)])
            try await Self.warmUp(b, [(v1, bInRoom1.video)])
            let linkCounts = (
                v1.received(bInRoom1.video).count, v1.received(bInRoom1.audio).count, v2.received(aInRoom2.video).count, v2.received(aInRoom2.audio).count
            )
            let linkStart = (a.sentVideo.count, a.sentAudio.count, b.sentVideo.count, b.sentAudio.count)
            for index in 0..<20 {
                try a.sendFrame(keyframe: index == 0)
                try b.sendFrame(keyframe: index == 0)
                try await Task.sleep(for: .milliseconds(4))
            }
            for (viewer, publisher, tracks, skip, start) in [
                (v1, b, bInRoom1, (linkCounts.0, linkCounts.1), (linkStart.2, linkStart.3)),
                (v2, a, aInRoom2, (linkCounts.2, linkCounts.3), (linkStart.0, linkStart.1)),
            ] {
                try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "\(viewer.name): the other anchor's media across nodes") { packets in
                    packets.contains { $0.ssrc == tracks.video && $0.payload == publisher.sentVideo.last!.payload }
                        && packets.contains { $0.ssrc == tracks.audio && $0.payload == publisher.sentAudio.last!.payload }
                }
                ForwardingHelpers.checkRun(
                    Array(viewer.received(tracks.video).dropFirst(skip.0)), sent: Array(publisher.sentVideo[start.0...]), video: true,
                    "\(viewer.name) linked video")
                ForwardingHelpers.checkRun(
                    Array(viewer.received(tracks.audio).dropFirst(skip.1)), sent: Array(publisher.sentAudio[start.1...]), video: false,
                    "\(viewer.name) linked audio")
            }
            for (anchor, mark, target) in [(a, marks.a, "r2"), (b, marks.b, "r1")] {
                let event = try await ForwardingHelpers.waitForSequence(
                    anchor.client, from: mark, "first keyframe into \(target)",
                    [
                        { $0.forwardFirstKeyframe?.targetRoomId == target }
                    ])[0].forwardFirstKeyframe!
                #expect(event.via == "link", "\(event)")
            }

            // A room message for the linked rooms reaches both audiences; a user message to the
            // mirrored anchor reaches it on its own node.
            marks = (v1: await v1.mark(), v2: await v2.mark(), a: await a.client.eventCount, b: await b.client.eventCount)
            try await a.client.call("sendRoomMessage", SendRoomMessageParams(roomId: "r1", message: "score 3:2", toLinkedRooms: true))
            let inRoom2 = try await ForwardingHelpers.waitForSequence(v2.client, from: marks.v2, "v2: the room message from r1", [{ $0.roomMessage != nil }])[0]
                .roomMessage!
            #expect(inRoom2 == MessageReceivedEvent(roomId: "r2", fromRoomId: "r1", userId: "A", message: "score 3:2", binary: nil))
            try await v1.client.call("sendUserMessage", SendUserMessageParams(roomId: "r1", userId: "B", message: "hello B"))
            let toB = try await ForwardingHelpers.waitForSequence(
                b.client, from: marks.b, "B: the user message from v1", [{ $0.name == "onUserMessageReceived" }])[0]
            #expect(toB.text.contains("hello B") && toB.text.contains("\"roomId\":\"r2\""), "\(toB.text)")

            // A hides B's video in its own room: v1 sees B republish audio only; room 2 is untouched.
            marks = (v1: await v1.mark(), v2: await v2.mark(), a: await a.client.eventCount, b: await b.client.eventCount)
            try await a.client.call("updateOtherRoomForwardMode", UpdateOtherRoomForwardModeParams(roomId: "r2", userId: "B", muteVideo: true))
            try await ForwardingHelpers.waitForSequence(
                v1.client, from: marks.v1, "v1: B without video",
                [
                    { $0.userPublishStream?.userId == "B" && $0.userPublishStream?.mediaType == MediaType.audio }
                ])

            // Disconnect from B's side: both anchors hear it, both mirrors go.
            marks = (v1: await v1.mark(), v2: await v2.mark(), a: await a.client.eventCount, b: await b.client.eventCount)
            try await b.client.call("disconnectOtherRoom", LocalRoomParams())
            try await ForwardingHelpers.waitForSequence(v1.client, from: marks.v1, "v1: B goes", ForwardingHelpers.vanished("B"))
            try await ForwardingHelpers.waitForSequence(v2.client, from: marks.v2, "v2: A goes", ForwardingHelpers.vanished("A"))
            for (anchor, mark, peer) in [(a, marks.a, "B"), (b, marks.b, "A")] {
                let event = try await ForwardingHelpers.waitForSequence(
                    anchor.client, from: mark, "onDisconnectOtherRoom", [{ $0.disconnectOtherRoom != nil }])[0].disconnectOtherRoom!
                #expect(event.peerUserId == peer && event.reason == "disconnect", "\(event)")
            }

            // Linked again, then B leaves its room: A hears peerLeft and both mirrors go.
            marks = (v1: await v1.mark(), v2: await v2.mark(), a: await a.client.eventCount, b: await b.client.eventCount)
            let again: ConnectOtherRoomEvent = try await a.client.request("connectOtherRoom", ConnectOtherRoomParams(roomId: "r2", userId: "B"))
            #expect(again.errorCode == 0, "\(again)")
            try await ForwardingHelpers.waitForSequence(v2.client, from: marks.v2, "v2: A appears again", ForwardingHelpers.appeared("A", from: "r1"))
            try await ForwardingHelpers.waitForSequence(v1.client, from: marks.v1, "v1: B appears again", ForwardingHelpers.appeared("B", from: "r2"))
            marks = (v1: await v1.mark(), v2: await v2.mark(), a: await a.client.eventCount, b: await b.client.eventCount)
            try await b.client.call("leaveRoom", RoomParams(roomId: "r2"))
            let ended = try await ForwardingHelpers.waitForSequence(a.client, from: marks.a, "A: onDisconnectOtherRoom", [{ $0.disconnectOtherRoom != nil }])[0]
                .disconnectOtherRoom!
            #expect(ended.reason == "peerLeft" && ended.peerUserId == "B" && ended.peerRoomId == "r2" && ended.roomId == "r1", "\(ended)")
            try await ForwardingHelpers.waitForSequence(v1.client, from: marks.v1, "v1: B goes", ForwardingHelpers.vanished("B"))

            // A link to a room that exists nowhere is refused (-102046) and places no room.
            let placedBefore = try await relayA.metric("pkrelay_cluster_rooms")
            do {
                let _: ConnectOtherRoomEvent = try await a.client.request("connectOtherRoom", ConnectOtherRoomParams(roomId: "nowhere", userId: "x"))
                Issue.record("a link into a room that does not exist was accepted")
            } catch ControlClientError.relay(let error) {
                #expect(error.code == .targetRoomNotFound, "\(error)")
            }
            #expect(try await relayA.metric("pkrelay_cluster_rooms") == placedBefore, "the refused link placed no room")

            // A link to a user who is not there is refused by its node, with the one-node code.
            do {
                let _: ConnectOtherRoomEvent = try await a.client.request("connectOtherRoom", ConnectOtherRoomParams(roomId: "r2", userId: "nobody"))
                Issue.record("a link to an absent user was accepted")
            } catch ControlClientError.relay(let error) {
                #expect(error.code == .targetRoomNotFound || error.code == .targetUserNotFound, "\(error)")
            }
            for viewer in [v1, v2] { await viewer.close() }
            for anchor in [a, b] {
                anchor.endpoint.close()
                await anchor.client.close()
            }
        }
    }

    @Test("invitations between anchors on two nodes: refused, canceled, and accepted with autoLink, which links them")
    func invitationsAcrossNodes() async throws {
        try await Self.withTwoNodes { relayA, relayB in
            let a = try await TestPublisher.start(relayA, room: "r1", user: "A", profile: Self.profile, videoSSRC: 0xA1A1_0001, audioSSRC: 0xA1A1_0002)
            let b = try await TestPublisher.start(relayB, room: "r2", user: "B", profile: Self.profile, videoSSRC: 0xA2A2_0001, audioSSRC: 0xA2A2_0002)
            let v2 = try await Viewer.join(relayB, room: "r2", user: "v2")

            // Refused by the invitee: both hear Refused (reason active).
            var marks = (a: await a.client.eventCount, b: await b.client.eventCount)
            let first: InviteResult = try await a.client.request("invite", InviteParams(roomId: "r2", userId: "B", payload: "pk?"))
            let received = try await ForwardingHelpers.waitForSequence(b.client, from: marks.b, "B: the invitation", [{ $0.invitationReceived != nil }])[0]
                .invitationReceived!
            #expect(
                received.inviteId == first.inviteId && received.fromUserId == "A" && received.fromRoomId == "r1" && received.roomId == "r2"
                    && received.payload == "pk?", "\(received)")
            try await b.client.call("rejectInvitation", RejectInvitationParams(inviteId: first.inviteId, reason: "active"))
            let refused = try await ForwardingHelpers.waitForSequence(
                a.client, from: marks.a, "A: refused",
                [
                    {
                        $0.invitationStateChanged.map { $0.inviteId == first.inviteId && $0.state == InvitationState.refused.rawValue && $0.side == "caller" }
                            ?? false
                    }
                ])[0].invitationStateChanged!
            #expect(refused.reason == "active" && refused.peerUserId == "B" && refused.peerRoomId == "r2", "\(refused)")

            // Canceled by the caller: the invitee hears Canceled.
            marks = (a: await a.client.eventCount, b: await b.client.eventCount)
            let second: InviteResult = try await a.client.request("invite", InviteParams(roomId: "r2", userId: "B"))
            try await ForwardingHelpers.waitForSequence(
                b.client, from: marks.b, "B: the second invitation", [{ $0.invitationReceived?.inviteId == second.inviteId }])
            try await a.client.call("cancelInvitation", InvitationParams(inviteId: second.inviteId))
            try await ForwardingHelpers.waitForSequence(
                b.client, from: marks.b, "B: canceled",
                [
                    {
                        $0.invitationStateChanged.map { $0.inviteId == second.inviteId && $0.state == InvitationState.canceled.rawValue && $0.side == "callee" }
                            ?? false
                    }
                ])

            // Accepted with autoLink: both hear Accepted, then onConnectOtherRoom; A shows in r2.
            marks = (a: await a.client.eventCount, b: await b.client.eventCount)
            let v2Mark = await v2.mark()
            let third: InviteResult = try await a.client.request("invite", InviteParams(roomId: "r2", userId: "B", autoLink: true))
            try await ForwardingHelpers.waitForSequence(
                b.client, from: marks.b, "B: the third invitation", [{ $0.invitationReceived.map { $0.inviteId == third.inviteId && $0.autoLink } ?? false }])
            try await b.client.call("acceptInvitation", InvitationParams(inviteId: third.inviteId, payload: "ok"))
            for (anchor, mark, side, peer) in [(a, marks.a, "caller", "B"), (b, marks.b, "callee", "A")] {
                let events = try await ForwardingHelpers.waitForSequence(
                    anchor.client, from: mark, "\(side): accepted, then linked",
                    [
                        {
                            $0.invitationStateChanged.map { $0.inviteId == third.inviteId && $0.state == InvitationState.accepted.rawValue && $0.side == side }
                                ?? false
                        },
                        { $0.connectOtherRoom?.errorCode == 0 },
                    ])
                #expect(events[1].connectOtherRoom?.peerUserId == peer, "\(events[1].text)")
            }
            try await ForwardingHelpers.waitForSequence(v2.client, from: v2Mark, "v2: A appears", ForwardingHelpers.appeared("A", from: "r1"))

            // Linked, B is busy: a new invitation is refused at once (reason busy).
            let other = try await relayA.join(room: "r3", user: "C")
            let busy: InviteResult = try await other.request("invite", InviteParams(roomId: "r2", userId: "B"))
            #expect(busy.inviteId.hasPrefix("a-inv-"), "named by the caller's node: \(busy)")
            let refusedBusy = try await ForwardingHelpers.waitForSequence(
                other, from: 0, "C: refused as busy",
                [
                    { $0.invitationStateChanged.map { $0.inviteId == busy.inviteId && $0.state == InvitationState.refused.rawValue } ?? false }
                ])[0].invitationStateChanged!
            #expect(refusedBusy.reason == "busy", "\(refusedBusy)")
            await other.close()
            await v2.close()
            for anchor in [a, b] {
                anchor.endpoint.close()
                await anchor.client.close()
            }
        }
    }

    @Test(
        "the traffic tool's pk-cluster scenario: PK pairs straddling two nodes, setup percentiles and per-node load",
        arguments: ["link", "forward"])
    func trafficToolAcrossNodes(mode: String) async throws {
        try await Self.withTwoNodes { relayA, relayB in
            // With forwards both anchors start theirs at once: both nodes dial each other at once.
            let (status, report, output) = try await TrafficToolEndToEndTests.runTool([
                "--scenario", "pk-cluster", "--relay", relayA.controlURL, "--relay", relayB.controlURL,
                "--admin", "http://127.0.0.1:\(relayA.ports.admin)", "--admin", "http://127.0.0.1:\(relayB.ports.admin)",
                "--duration", "3s", "--rooms", "2", "--audience", "2", "--pk-mode", mode,
            ])
            #expect(status == 0, "\(output)")
            try TrafficToolEndToEndTests.checkReport(report, scenario: "pk-cluster", output: output)
            let setup = try #require(report?["setupToFirstKeyframeMs"] as? [String: Any])
            #expect(setup["via"] as? String == "\(mode) across nodes", "\(output)")
            #expect(((setup["latency"] as? [String: Any])?["count"] as? Int) == 2, "both directions of the one pair: \(output)")
            #expect(report?["streams"] as? Int == 16, "each viewer gets both anchors across the nodes: \(output)")
            let nodes = try #require(report?["nodes"] as? [[String: Any]], "\(output)")
            #expect(nodes.count == 2 && nodes.allSatisfy { $0["rooms"] as? Int == 1 && $0["clients"] as? Int == 3 }, "\(nodes)")
            #expect(nodes.allSatisfy { ($0["packetsPerSecondIn"] as? Double ?? 0) > 0 && ($0["packetsPerSecondOut"] as? Double ?? 0) > 0 }, "\(nodes)")
            #expect(output.contains("node       \(relayB.controlURL): rooms 1, clients 3"), "\(output)")
        }
    }

    /// Node `id` listening (control and media) on its own loopback address, as three hosts would.
    static func node(_ id: String, host: String, on database: PostgresTestServer) -> (inout RelayConfiguration) -> Void {
        { configuration in
            ClusterRelayTests.node(id, on: database)(&configuration)
            configuration.controlHost = host
            configuration.media.bindAddress = host
        }
    }

    @Test("three nodes on 127.0.0.1, .2 and .3: a link between two of them, the third forwarding into both, a viewer redirected")
    func threeNodes() async throws {
        try await PostgresTestServer.with { database in
            try await TestRelay.with(Self.node("a", host: "127.0.0.1", on: database)) { relayA in
                try await TestRelay.with(Self.node("b", host: "127.0.0.2", on: database)) { relayB in
                    try await TestRelay.with(Self.node("c", host: "127.0.0.3", on: database)) { relayC in
                        for relay in [relayA, relayB, relayC] { try await Self.waitUntilServing(relay) }
                        let a = try await TestPublisher.start(
                            relayA, room: "r1", user: "A", profile: Self.profile, videoSSRC: 0x3A3A_0001, audioSSRC: 0x3A3A_0002)
                        let b = try await TestPublisher.start(
                            relayB, room: "r2", user: "B", profile: Self.profile, videoSSRC: 0x3B3B_0001, audioSSRC: 0x3B3B_0002)
                        let c = try await TestPublisher.start(
                            relayC, room: "r3", user: "C", profile: Self.profile, videoSSRC: 0x3C3C_0001, audioSSRC: 0x3C3C_0002)
                        let v1 = try await Viewer.join(relayA, room: "r1", user: "v1")
                        let v2 = try await Viewer.join(relayB, room: "r2", user: "v2")
                        let marks = (v1: await v1.mark(), v2: await v2.mark())

                        // A links with B (a-b); C forwards into both rooms (c-a, c-b).
                        let linked: ConnectOtherRoomEvent = try await a.client.request("connectOtherRoom", ConnectOtherRoomParams(roomId: "r2", userId: "B"))
                        #expect(linked.errorCode == 0, "\(linked)")
                        let forward: ForwardStreamResult = try await c.client.request(
                            "startForwardStreamToRooms",
                            StartForwardParams(
                                roomId: "r3", targets: [ForwardingRelayTests.target("r1", user: "C"), ForwardingRelayTests.target("r2", user: "C")]))
                        #expect(forward.infos.allSatisfy { $0.state == ForwardState.success.rawValue }, "\(forward)")
                        try await ForwardingHelpers.waitForSequence(v1.client, from: marks.v1, "v1: B appears", ForwardingHelpers.appeared("B", from: "r2"))
                        try await ForwardingHelpers.waitForSequence(v1.client, from: marks.v1, "v1: C appears", ForwardingHelpers.appeared("C", from: "r3"))
                        try await ForwardingHelpers.waitForSequence(v2.client, from: marks.v2, "v2: A appears", ForwardingHelpers.appeared("A", from: "r1"))
                        try await ForwardingHelpers.waitForSequence(v2.client, from: marks.v2, "v2: C appears", ForwardingHelpers.appeared("C", from: "r3"))
                        let cInRoom1 = try await v1.subscription(of: "C", after: marks.v1)
                        let cInRoom2 = try await v2.subscription(of: "C", after: marks.v2)
                        try await Self.warmUp(c, [(v1, cInRoom1.video), (v2, cInRoom2.video)])
                        let cCounts = [v1.received(cInRoom1.video).count, v2.received(cInRoom2.video).count]
                        let start = c.sentVideo.count
                        try await c.sendFrames(10, keyframes: [0])
                        for ((viewer, tracks), count) in zip([(v1, cInRoom1), (v2, cInRoom2)], cCounts) {
                            try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "\(viewer.name): C's video from node c") { packets in
                                packets.contains { $0.ssrc == tracks.video && $0.payload == c.sentVideo.last!.payload }
                            }
                            ForwardingHelpers.checkRun(
                                Array(viewer.received(tracks.video).dropFirst(count)), sent: Array(c.sentVideo[start...]), video: true,
                                "\(viewer.name): C's video")
                        }

                        // A viewer of r2 that reaches node c is sent to node b (127.0.0.2), where it sees A, B and C.
                        let (lost, joined) = try await ControlClient.connectAndJoin(
                            to: relayC.controlURL,
                            JoinRoomParams(
                                token: TestRelay.token(room: "r2", user: "late"), roomId: "r2", userId: "late", role: .audience, visible: false))
                        #expect(Set(joined.users.map(\.userId)) == ["A", "B", "C"], "\(joined.users.map(\.userId))")
                        #expect(relayB.controlURL.hasPrefix("ws://127.0.0.2:"))
                        await lost.close()
                        for viewer in [v1, v2] { await viewer.close() }
                        for anchor in [a, b, c] {
                            anchor.endpoint.close()
                            await anchor.client.close()
                        }
                    }
                }
            }
        }
    }

    @Test(
        "a partition between two nodes (their veth cut) shorter than the lease: Disconnected and the mirror leaves; healed, Connected and it is back",
        .enabled(if: NetworkNamespace.isAvailable, "network namespaces need root and iproute2"))
    func partitionHeals() async throws {
        let space = try NetworkNamespace.create(index: 1)
        defer { space.destroy() }
        try await PostgresTestServer.with { database in
            // Node a in the namespace (it still reaches the database's Unix socket), node b here.
            try await ClusterRelayTests.withNodeProcess(on: database, leaseSeconds: 20, host: space.innerAddress, namespace: space.name) { process, url in
                try await TestRelay.with({ configuration in
                    ClusterRelayTests.node("b", on: database)(&configuration)
                    configuration.cluster.leaseSeconds = 20
                    configuration.controlHost = space.hostAddress
                    configuration.media.bindAddress = space.hostAddress
                }) { relayB in
                    try await Self.waitUntilServing(relayB)
                    let fan = try await ClusterRelayTests.join(url: url, room: "away", user: "fan")
                    let anchor = try await TestPublisher.start(
                        relayB, room: "home", user: "A", profile: Self.profile, videoSSRC: 0x9A9A_0001, audioSSRC: 0x9A9A_0002)
                    let started: ForwardStreamResult = try await anchor.client.request(
                        "startForwardStreamToRooms",
                        StartForwardParams(
                            roomId: "home",
                            targets: [
                                ForwardingRelayTests.target("away", user: "A")
                            ]))
                    #expect(started.infos.first?.state == ForwardState.success.rawValue, "\(started)")
                    try await ForwardingHelpers.waitForSequence(fan, from: 0, "fan: A appears across the veth", ForwardingHelpers.appeared("A", from: "home"))

                    let fanMark = await fan.eventCount
                    let anchorMark = await anchor.client.eventCount
                    let cutAt = ContinuousClock.now
                    try space.setLink(up: false)
                    try await ForwardingHelpers.waitForSequence(
                        anchor.client, from: anchorMark, "A: Disconnected", timeout: .seconds(10),
                        [
                            { $0.forwardStreamEvent?.infos == [ForwardStreamEventInfo(roomId: "away", event: ForwardEvent.disconnected.rawValue)] }
                        ])
                    let detected = ContinuousClock.now - cutAt
                    try space.setLink(up: true)
                    let healedAt = ContinuousClock.now
                    try await ForwardingHelpers.waitForSequence(
                        anchor.client, from: anchorMark, "A: Connected once healed", timeout: .seconds(10),
                        [
                            { $0.forwardStreamEvent?.infos.first?.event == ForwardEvent.disconnected.rawValue },
                            { $0.forwardStreamEvent?.infos == [ForwardStreamEventInfo(roomId: "away", event: ForwardEvent.connected.rawValue)] },
                        ])
                    let reconnected = ContinuousClock.now - healedAt
                    #expect(try await relayB.metric("pkrelay_cluster_peer_losses_total") >= 1, "the cut counts as a lost connection")
                    // The fan's own connection to node a survived the cut: it heard the mirror leave
                    // (Dropped) when node a lost node b, and come back.
                    let seen = try await ForwardingHelpers.waitForSequence(
                        fan, from: fanMark, "fan: A leaves, then is back", timeout: .seconds(20),
                        [
                            { $0.userLeave?.userId == "A" },
                            { $0.userJoined?.userId == "A" && $0.userJoined?.forwardedFrom == "home" },
                        ])
                    #expect(seen[0].userLeave?.reason == .dropped, "\(seen[0].text)")
                    #expect(
                        await anchor.client.events().allSatisfy { $0.forwardStateChanged?.infos.first?.state != ForwardState.failure.rawValue },
                        "the target never failed")
                    print("cluster: partition: Disconnected \(detected) after the cut, Connected \(reconnected) after it healed")
                    await fan.close()
                    anchor.endpoint.close()
                    await anchor.client.close()
                }
            }
        }
    }

    @Test("a forwarded track crosses only while someone on the target node subscribes to it")
    func onlyWatchedTracksCross() async throws {
        try await Self.withTwoNodes { relayA, relayB in
            let anchor = try await TestPublisher.start(relayA, room: "home", user: "A", profile: Self.profile, videoSSRC: 0x7A7A_0001, audioSSRC: 0x7A7A_0002)
            let viewer = try await Viewer.join(relayB, room: "away", user: "viewer", autoSubscribe: false)
            let mark = await viewer.mark()
            let _: ForwardStreamResult = try await anchor.client.request(
                "startForwardStreamToRooms",
                StartForwardParams(
                    roomId: "home",
                    targets: [
                        ForwardingRelayTests.target("away", user: "A")
                    ]))
            try await ForwardingHelpers.waitForSequence(viewer.client, from: mark, "viewer: A appears", ForwardingHelpers.appeared("A", from: "home"))

            // Shown but not watched: nothing crosses. (The counters come from the data plane's
            // report, about once a second: each reading waits for a fresh one.)
            let reportInterval = Duration.milliseconds(1300)
            try await Task.sleep(for: reportInterval)
            let before = try await relayB.metric("pkrelay_packets_in_total")
            try await anchor.sendFrames(20, keyframes: [0, 10])
            try await Task.sleep(for: reportInterval)
            #expect(try await relayA.metric("pkrelay_packets_in_total") >= 40, "a took the anchor's packets")
            #expect(try await relayB.metric("pkrelay_packets_in_total") == before, "no subscriber on b: the anchor's packets stay on a")

            // Subscribed: the tracks cross (from a keyframe) and reach the viewer.
            let tracks = try await viewer.subscribe(to: "A")
            let video = try #require(tracks.tracks.first { $0.kind == .video }?.ssrc)
            try await Self.warmUp(anchor, [(viewer, video)])
            let count = viewer.received(video).count
            let start = anchor.sentVideo.count
            try await anchor.sendFrames(10, keyframes: [0])
            try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "viewer: A's video once subscribed") { packets in
                packets.contains { $0.ssrc == video && $0.payload == anchor.sentVideo.last!.payload }
            }
            ForwardingHelpers.checkRun(Array(viewer.received(video).dropFirst(count)), sent: Array(anchor.sentVideo[start...]), video: true, "viewer video")

            // Unsubscribed again: the crossing stops.
            try await viewer.client.call("unsubscribeStream", SubscribeStreamParams(roomId: "away", userId: "A", streamIndex: .main))
            try await Task.sleep(for: reportInterval)
            let stopped = try await relayB.metric("pkrelay_packets_in_total")
            #expect(stopped > before, "the subscribed phase crossed")
            let sentBefore = anchor.sentVideo.count + anchor.sentAudio.count
            try await anchor.sendFrames(10, keyframes: [0])
            try await Task.sleep(for: reportInterval)
            let sent = anchor.sentVideo.count + anchor.sentAudio.count - sentBefore
            // Sender reports of the pipe's sinks may still cross (one a second each); media does not.
            let crossed = try await relayB.metric("pkrelay_packets_in_total") - stopped
            #expect(crossed <= 4, "after the unsubscribe \(crossed) of \(sent) packets crossed")
            await viewer.close()
            anchor.endpoint.close()
            await anchor.client.close()
        }
    }

    @Test(
        "a link asked from one node while a forward leaves the other, at the same moment: both nodes dial at once, and both requests are answered",
        arguments: 0..<3)
    func simultaneousLinkAndForward(round: Int) async throws {
        try await Self.withTwoNodes { relayA, relayB in
            let a = try await TestPublisher.start(relayA, room: "r1", user: "A", profile: Self.profile, videoSSRC: 0x6A6A_0001, audioSSRC: 0x6A6A_0002)
            let c = try await TestPublisher.start(relayA, room: "r3", user: "C", profile: Self.profile, videoSSRC: 0x6C6C_0001, audioSSRC: 0x6C6C_0002)
            let b = try await TestPublisher.start(relayB, room: "r2", user: "B", profile: Self.profile, videoSSRC: 0x6B6B_0001, audioSSRC: 0x6B6B_0002)
            let cMark = await c.client.eventCount
            let (clientA, clientB) = (a.client, b.client)
            // a asks b to verify a forward into r2 while b asks a to link B with C in r3: the first
            // request each way dials the other node.
            async let forward: ForwardStreamResult = clientA.request(
                "startForwardStreamToRooms", StartForwardParams(roomId: "r1", targets: [ForwardingRelayTests.target("r2", user: "A")]))
            async let link: ConnectOtherRoomEvent = clientB.request("connectOtherRoom", ConnectOtherRoomParams(roomId: "r3", userId: "C"))
            let (forwarded, linked) = try await (forward, link)
            #expect(forwarded.infos.first?.state == ForwardState.success.rawValue, "round \(round): \(forwarded)")
            #expect(linked.errorCode == 0 && linked.peerRoomId == "r3" && linked.peerUserId == "C", "round \(round): \(linked)")
            let cLinked = try await ForwardingHelpers.waitForSequence(c.client, from: cMark, "C: onConnectOtherRoom", [{ $0.connectOtherRoom != nil }])[0]
                .connectOtherRoom!
            #expect(cLinked.errorCode == 0 && cLinked.peerRoomId == "r2" && cLinked.peerUserId == "B", "round \(round): \(cLinked)")
            let peers = (try await relayA.metric("pkrelay_cluster_peers"), try await relayB.metric("pkrelay_cluster_peers"))
            #expect(peers.0 == 1 && peers.1 == 1, "one connection between the nodes: \(peers)")
            for anchor in [a, b, c] {
                anchor.endpoint.close()
                await anchor.client.close()
            }
        }
    }

    @Test("a viewer on the target node NACKs forwarded video: its node answers from its own copy of what crossed the pipe")
    func nackAnsweredOnTheTargetNode() async throws {
        try await Self.withTwoNodes { relayA, relayB in
            let anchor = try await TestPublisher.start(relayA, room: "home", user: "A", profile: Self.profile, videoSSRC: 0x7C7C_0001, audioSSRC: 0x7C7C_0002)
            let viewer = try await Viewer.join(relayB, room: "away", user: "viewer")
            let mark = await viewer.mark()
            let _: ForwardStreamResult = try await anchor.client.request(
                "startForwardStreamToRooms",
                StartForwardParams(
                    roomId: "home",
                    targets: [
                        ForwardingRelayTests.target("away", user: "A")
                    ]))
            let tracks = try await viewer.subscription(of: "A", after: mark)
            let video = try #require(tracks.video)
            try await Self.warmUp(anchor, [(viewer, video)])
            try await anchor.sendFrames(10, keyframes: [0])
            try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "viewer: the frames crossed") { packets in
                packets.contains { $0.ssrc == video && $0.payload == anchor.sentVideo.last!.payload }
            }
            let retransmittedBefore = (try await relayA.metric("pkrelay_retransmissions_total"), try await relayB.metric("pkrelay_retransmissions_total"))

            let originals = Array(viewer.received(video).suffix(8).prefix(5))
            try viewer.endpoint.sendGenericNACK(senderSSRC: 0x5EED_0002, mediaSSRC: video, sequenceNumbers: originals.map(\.sequenceNumber))
            let repeats = try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "5 retransmissions") { packets in
                packets.filter { $0.isRetransmission && $0.ssrc == video }.count >= 5
            }.filter { $0.isRetransmission && $0.ssrc == video }
            #expect(repeats.count == 5)
            for original in originals {
                let again = repeats.first { $0.sequenceNumber == original.sequenceNumber }
                #expect(again?.payload == original.payload && again?.timestamp == original.timestamp, "retransmission of \(original.sequenceNumber)")
            }
            // Answered on b from the remote source's buffer: a is not asked for anything.
            _ = try await AdminHTTPClient.waitForMetric(port: relayB.ports.admin, "pkrelay_retransmissions_total") { $0 >= retransmittedBefore.1 + 5 }
            #expect(try await relayB.metric("pkrelay_retransmissions_total") == retransmittedBefore.1 + 5)
            #expect(try await relayA.metric("pkrelay_retransmissions_total") == retransmittedBefore.0)
            await viewer.close()
            anchor.endpoint.close()
            await anchor.client.close()
        }
    }

    @Test("two anchors on two nodes forward into each other's room at the same moment: both nodes dial at once, and both forwards hold")
    func simultaneousForwardsBothWays() async throws {
        try await Self.withTwoNodes { relayA, relayB in
            let a = try await TestPublisher.start(relayA, room: "r1", user: "A", profile: Self.profile, videoSSRC: 0x5A5A_0001, audioSSRC: 0x5A5A_0002)
            let b = try await TestPublisher.start(relayB, room: "r2", user: "B", profile: Self.profile, videoSSRC: 0x5B5B_0001, audioSSRC: 0x5B5B_0002)
            let v1 = try await Viewer.join(relayA, room: "r1", user: "v1")
            let v2 = try await Viewer.join(relayB, room: "r2", user: "v2")
            let marks = (a: await a.client.eventCount, b: await b.client.eventCount, v1: await v1.mark(), v2: await v2.mark())
            let (clientA, clientB) = (a.client, b.client)
            async let intoB: ForwardStreamResult = clientA.request(
                "startForwardStreamToRooms", StartForwardParams(roomId: "r1", targets: [ForwardingRelayTests.target("r2", user: "A")]))
            async let intoA: ForwardStreamResult = clientB.request(
                "startForwardStreamToRooms", StartForwardParams(roomId: "r2", targets: [ForwardingRelayTests.target("r1", user: "B")]))
            let (forwardA, forwardB) = try await (intoB, intoA)
            #expect(
                forwardA.infos.first?.state == ForwardState.success.rawValue && forwardB.infos.first?.state == ForwardState.success.rawValue,
                "\(forwardA) \(forwardB)")
            try await ForwardingHelpers.waitForSequence(v1.client, from: marks.v1, "v1: B appears", ForwardingHelpers.appeared("B", from: "r2"))
            try await ForwardingHelpers.waitForSequence(v2.client, from: marks.v2, "v2: A appears", ForwardingHelpers.appeared("A", from: "r1"))
            let bInRoom1 = try await v1.subscription(of: "B", after: marks.v1)
            let aInRoom2 = try await v2.subscription(of: "A", after: marks.v2)
            try await Self.warmUp(a, [(v2, aInRoom2.video)])
            try await Self.warmUp(b, [(v1, bInRoom1.video)])
            // A few seconds later (past the silence limit) nothing was lost on the way.
            try await Task.sleep(for: .seconds(4))
            for (anchor, mark) in [(a, marks.a), (b, marks.b)] {
                let events = await anchor.client.events().dropFirst(mark)
                #expect(!events.contains { $0.forwardStreamEvent?.infos.first?.event == ForwardEvent.disconnected.rawValue }, "\(events.map(\.text))")
                #expect(!events.contains { $0.forwardStateChanged?.infos.first?.state == ForwardState.failure.rawValue }, "\(events.map(\.text))")
            }
            let before = (v1.received(bInRoom1.video).count, v2.received(aInRoom2.video).count)
            try await a.sendFrames(5, keyframes: [0])
            try await b.sendFrames(5, keyframes: [0])
            try await v1.endpoint.waitForRTP(timeout: .seconds(5), "v1: B's video still flows") { _ in v1.received(bInRoom1.video).count > before.0 }
            try await v2.endpoint.waitForRTP(timeout: .seconds(5), "v2: A's video still flows") { _ in v2.received(aInRoom2.video).count > before.1 }
            for viewer in [v1, v2] { await viewer.close() }
            for anchor in [a, b] {
                anchor.endpoint.close()
                await anchor.client.close()
            }
        }
    }
}
