import Protocol
import RoomEngine
import Testing

/// The co-host flow: an audience member steps on stage (visible, anchor, publishing) and back
/// off it, and the rest of the room sees exactly four events.
@Suite struct CoHostScenarioTests {
    @Test func everyOtherUserSeesJoinPublishUnpublishLeave() {
        var s = Scenario()
        let host = s.enter("host")
        s.publish(host)
        let watcher = s.enter("watcher", role: .audience, visible: false)
        let cohost = s.enter("cohost", role: .audience, visible: false)
        let mark = s.mark

        #expect(s.setVisible(cohost, true).value != nil)
        #expect(s.switchRole(cohost, to: .anchor).value != nil)
        #expect(s.publish(cohost).value != nil)
        #expect(s.unpublish(cohost).value != nil)
        #expect(s.setVisible(cohost, false).value != nil)

        let expected: [ServerEvent] = [
            .joined("cohost", .audience),
            .published("cohost"),
            .unpublished("cohost", .unpublish),
            .left("cohost", .switchToInvisible),
        ]
        #expect(s.events(for: host, since: mark) == expected)
        #expect(s.events(for: watcher, since: mark) == expected)
        #expect(s.events(for: cohost, since: mark) == [.visibility(true), .role(.anchor), .visibility(false)])
        // The media plane saw the co-host's two tracks come and go, and nothing else.
        let added = s.addedSources(since: mark)
        #expect(added.map(\.ssrc) == cohost.tracks().map(\.ssrc))
        #expect(s.media(since: mark) == added.map { .addSource($0) } + added.map { .removeSource($0.id) })
    }

    @Test func coHostingTwiceLooksTheSameBothTimes() {
        var s = Scenario()
        let host = s.enter("host")
        let cohost = s.enter("cohost", role: .audience, visible: false)
        var rounds: [[ServerEvent]] = []
        for _ in 0..<2 {
            let mark = s.mark
            s.setVisible(cohost, true)
            s.switchRole(cohost, to: .anchor)
            s.publish(cohost)
            s.unpublish(cohost)
            s.switchRole(cohost, to: .audience)
            s.setVisible(cohost, false)
            rounds.append(s.events(for: host, since: mark))
        }
        #expect(rounds[0] == rounds[1])
        #expect(rounds[0] == [.joined("cohost", .audience), .published("cohost"), .unpublished("cohost", .unpublish), .left("cohost", .switchToInvisible)])
    }

    @Test func coHostSubscribedByTheHostGetsSinksThatEndWithTheStage() {
        var s = Scenario()
        let host = s.enter("host", autoSubscribe: true)
        let cohost = s.enter("cohost", role: .audience, visible: false)
        let mark = s.mark
        s.setVisible(cohost, true)
        s.switchRole(cohost, to: .anchor)
        s.publish(cohost)
        let sinks = s.addedSinks(since: mark)
        #expect(sinks.map(\.kind) == [.audio, .video])
        #expect(sinks.allSatisfy { $0.transportId == host.transport })
        let off = s.mark
        s.unpublish(cohost)
        s.setVisible(cohost, false)
        #expect(s.removedSinks(since: off) == sinks.map(\.id))
        #expect(s.events(for: host, since: off) == [.unpublished("cohost", .unpublish), .left("cohost", .switchToInvisible)])
    }
}
