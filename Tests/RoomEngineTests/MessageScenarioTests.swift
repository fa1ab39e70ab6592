import Protocol
import RoomEngine
import Testing

/// Room and user messages: who receives them, linked rooms, size and rate limits, and mirrors.
@Suite struct MessageScenarioTests {
    /// A and viewers in r1, B and a viewer in r2, A and B linked; D in r3 forwards into r1.
    struct Linked {
        var s = Scenario()
        let a: Client, v1: Client, c1: Client, b: Client, v2: Client, d: Client

        init() {
            a = s.enter("A", room: "r1")
            v1 = s.enter("v1", role: .audience, visible: false, room: "r1")
            c1 = s.enter("c1", role: .audience, room: "r1")
            b = s.enter("B", room: "r2")
            v2 = s.enter("v2", role: .audience, visible: false, room: "r2")
            d = s.enter("D", room: "r3")
            s.connectOtherRoom(a, to: "r2", "B")
            s.startForward(d, room: "r3", [.ok("r1")])
        }
    }

    @Test func roomMessageReachesEveryOtherRealMember() {
        var t = Linked()
        let mark = t.s.mark
        #expect(t.s.roomMessage(t.v1, room: "r1", "hello").value != nil)
        for client in [t.a, t.c1] {
            #expect(t.s.events(for: client, since: mark) == [.roomMessage("hello", from: "v1", room: "r1")])
        }
        // Not the sender, not the mirrors' connections (B and D), not other rooms.
        for client in [t.v1, t.b, t.v2, t.d] { #expect(t.s.events(for: client, since: mark).isEmpty) }
    }

    @Test func roomMessageToLinkedRoomsReachesTheirMembersToo() {
        var t = Linked()
        let mark = t.s.mark
        #expect(t.s.roomMessage(t.a, room: "r1", "score 3:2", toLinkedRooms: true).value != nil)
        for client in [t.v1, t.c1] { #expect(t.s.events(for: client, since: mark) == [.roomMessage("score 3:2", from: "A", room: "r1")]) }
        for client in [t.b, t.v2] {
            #expect(t.s.events(for: client, since: mark) == [.roomMessage("score 3:2", from: "A", room: "r2", fromRoom: "r1")])
        }
        #expect(t.s.events(for: t.a, since: mark).isEmpty)
        #expect(t.s.events(for: t.d, since: mark).isEmpty)  // forwarded into r1, not linked with it
        // From the other side, by an audience member.
        let mark2 = t.s.mark
        t.s.roomMessage(t.v2, room: "r2", "gg", toLinkedRooms: true)
        #expect(t.s.events(for: t.a, since: mark2) == [.roomMessage("gg", from: "v2", room: "r1", fromRoom: "r2")])
        #expect(t.s.events(for: t.b, since: mark2) == [.roomMessage("gg", from: "v2", room: "r2")])
    }

    @Test func binaryMessagesAndPayloadRules() {
        var t = Linked()
        let mark = t.s.mark
        #expect(t.s.roomMessage(t.a, room: "r1", payload: MessagePayload(text: nil, base64: "AAEC", byteCount: 3)).value != nil)
        #expect(
            t.s.events(for: t.c1, since: mark) == [
                .roomMessageReceived(MessageReceivedEvent(roomId: "r1", fromRoomId: "r1", userId: "A", message: nil, binary: "AAEC"))
            ])
        #expect(t.s.roomMessage(t.a, room: "r1", payload: MessagePayload(text: nil, base64: nil, byteCount: 0)).error?.code == .invalidParams)
        #expect(t.s.roomMessage(t.a, room: "r1", payload: MessagePayload(text: "x", base64: "eA==", byteCount: 1)).error?.code == .invalidParams)
        #expect(t.s.roomMessage(t.a, room: "r2", "not mine").error?.code == .notInRoom)
    }

    @Test func sizeLimit() {
        var t = Linked()
        #expect(t.s.roomMessage(t.a, room: "r1", String(repeating: "x", count: 4096)).value != nil)
        let mark = t.s.mark
        #expect(t.s.roomMessage(t.a, room: "r1", String(repeating: "x", count: 4097)).error?.code == .messageTooLong)
        #expect(t.s.userMessage(t.a, room: "r1", to: "c1", String(repeating: "x", count: 4097)).error?.code == .messageTooLong)
        #expect(t.s.log.count == mark)
        #expect(ErrorCode.messageTooLong.rawValue == 4014)
    }

    @Test func rateLimitPerSecond() {
        var t = Linked()
        for i in 0..<10 {
            #expect(t.s.roomMessage(t.a, room: "r1", "m\(i)").value != nil)
            t.s.advance(seconds: 0.05)
        }
        let mark = t.s.mark
        #expect(t.s.roomMessage(t.a, room: "r1", "too many").error?.code == .rateLimited)
        #expect(t.s.userMessage(t.a, room: "r1", to: "c1", "too many").error?.code == .rateLimited)
        #expect(t.s.log.count == mark)
        // Others are not limited by A's count.
        #expect(t.s.roomMessage(t.c1, room: "r1", "mine").value != nil)
        // One second after the window opened, A may send again.
        t.s.advance(seconds: 0.5)
        #expect(t.s.roomMessage(t.a, room: "r1", "next second").value != nil)
        #expect(ErrorCode.rateLimited.rawValue == 4029)
    }

    @Test func userMessageToAMirrorReachesItsRealConnection() {
        var t = Linked()
        var mark = t.s.mark
        #expect(t.s.userMessage(t.v2, room: "r2", to: "A", "hi A").value != nil)
        #expect(t.s.events(for: t.a, since: mark) == [.userMessage("hi A", from: "v2", room: "r1", fromRoom: "r2")])
        mark = t.s.mark
        #expect(t.s.userMessage(t.c1, room: "r1", to: "D", "hi D").value != nil)
        #expect(t.s.events(for: t.d, since: mark) == [.userMessage("hi D", from: "c1", room: "r3", fromRoom: "r1")])
        mark = t.s.mark
        #expect(t.s.userMessage(t.a, room: "r1", to: "v1", "psst").value != nil)
        #expect(t.s.events(for: t.v1, since: mark) == [.userMessage("psst", from: "A", room: "r1")])
        #expect(t.s.userMessage(t.a, room: "r1", to: "nobody", "?").error?.code == .streamNotFound)
        #expect(t.s.userMessage(t.a, room: "r1", to: "A", "me").error?.code == .streamNotFound)
    }
}
