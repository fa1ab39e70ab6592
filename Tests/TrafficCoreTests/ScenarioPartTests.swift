import Testing

@testable import TrafficCore

/// How generators share a scenario.
struct ScenarioPartTests {
    @Test func parsesAndRefuses() {
        #expect(ScenarioPart("1/3") == ScenarioPart(index: 1, count: 3))
        for bad in ["3/3", "-1/2", "1/0", "1", "a/b", "1/2/3", ""] { #expect(ScenarioPart(bad) == nil, "\(bad)") }
    }

    @Test func pairsStayWholeAndEveryRoomRunsOnce() {
        let parts = (0..<3).map { ScenarioPart(index: $0, count: 3)! }
        let rooms = parts.map { $0.rooms(of: 10) }
        #expect(rooms[0] == [0, 1, 6, 7])
        #expect(rooms[1] == [2, 3, 8, 9])
        #expect(rooms[2] == [4, 5])
        #expect(rooms.joined().sorted() == Array(0..<10))
        #expect(ScenarioPart.whole.rooms(of: 4) == [0, 1, 2, 3])
        // More parts than pairs: the extra parts run nothing.
        #expect(ScenarioPart(index: 3, count: 4)!.rooms(of: 4).isEmpty)
    }

    @Test func fanoutDealsSubscribersAndKeepsOneAnchor() {
        let parts = (0..<2).map { ScenarioPart(index: $0, count: 2)! }
        #expect(parts[0].subscribers(of: 5) == [0, 2, 4])
        #expect(parts[1].subscribers(of: 5) == [1, 3])
        #expect(parts.filter(\.runsFanoutAnchor).count == 1)
    }

    @Test func publisherIdsDoNotCollideAcrossParts() {
        let ids = (0..<4).flatMap { index in (1...100).map { ScenarioPart(index: index, count: 4)!.publisherId(UInt32($0)) } }
        #expect(Set(ids).count == ids.count)
    }
}
