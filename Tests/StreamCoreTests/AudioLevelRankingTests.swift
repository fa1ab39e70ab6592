import StreamCore
import Testing

/// Ranking RFC 6464 levels (-dBov, lower is louder) and converting them to linear volume.
@Suite struct AudioLevelRankingTests {
    @Test(
        arguments: [
            (["a": 30, "b": 10, "c": 90, "d": 127], 3, ["b", "a", "c"]),
            (["a": 30, "b": 10, "c": 90, "d": 127], 10, ["b", "a", "c", "d"]),
            (["a": 30, "b": 10], 1, ["b"]),
            (["z": 20, "a": 20, "m": 5], 3, ["m", "a", "z"]),
            (["a": 0], 0, []),
            ([:], 3, []),
        ] as [([String: UInt8], Int, [String])])
    func loudestFirst(_ levels: [String: UInt8], _ count: Int, _ expected: [String]) {
        let ranked = AudioLevelRanking.loudest(levels, count: count)
        #expect(ranked.map(\.key) == expected)
        #expect(ranked.map(\.level) == expected.map { levels[$0]! })
    }

    @Test(
        arguments: [
            (UInt8(0), 255), (6, 128), (10, 81), (40, 3), (60, 0), (127, 0), (200, 0),
        ] as [(UInt8, Int)])
    func linearVolume(_ level: UInt8, _ expected: Int) {
        #expect(AudioLevelRanking.linearVolume(level: level) == expected)
    }
}
