import StreamCore
import Testing

@Suite struct ReceivedSequenceWindowTests {
    /// Whether each number was new, in order.
    static func insert(_ numbers: [UInt16], into window: inout ReceivedSequenceWindow) -> [Bool] {
        numbers.map { window.insert($0) }
    }

    @Test func aNumberIsNewOnceAndLateNumbersOnceToo() {
        var window = ReceivedSequenceWindow()
        let new = Self.insert([10, 11, 14, 14, 11, 13, 13, 12, 10], into: &window)
        #expect(new == [true, true, true, false, false, true, false, true, false])
    }

    @Test func numbersWrapAround() {
        var window = ReceivedSequenceWindow()
        let new = Self.insert([65_534, 65_535, 0, 1, 65_535, 0], into: &window)
        #expect(new == [true, true, true, true, false, false])
    }

    /// Bits are kept modulo the window's size: a number skipped over must not read as arrived
    /// because a number one lap earlier did.
    @Test func aNumberALapAfterOneThatArrivedIsNew() {
        var window = ReceivedSequenceWindow()
        let size = UInt16(ReceivedSequenceWindow.size)
        let new = Self.insert([0, 1000, size + 6, size, size, 1000], into: &window)
        // `size` is a lap after 0 and was skipped so far; 1000 is still inside the window.
        #expect(new == [true, true, true, true, false, false])
    }

    @Test func theWindowReachesAsFarBackAsTheRewriterMapsLatePackets() {
        var window = ReceivedSequenceWindow()
        let oldest = UInt16(5000 - TrackRewriter.restartDistance)
        let new = Self.insert([oldest, 5000, oldest], into: &window)
        #expect(new == [true, true, false])
    }

    /// A number further behind than the window starts it again there (a restarted sender); one
    /// further ahead empties it.
    @Test func farJumpsStartTheWindowAgain() {
        var window = ReceivedSequenceWindow()
        let new = Self.insert([30_000, 100, 100, 101, 30_000, 30_000, 101], into: &window)
        // 30 000 is forgotten when the window starts again at 100, and 101 when it empties at 30 000.
        #expect(new == [true, true, false, true, true, false, true])
    }
}
