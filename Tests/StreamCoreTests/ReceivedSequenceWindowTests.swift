import StreamCore
import Testing

@Suite struct ReceivedSequenceWindowTests {
    /// Whether each number was new, in order, all arriving at `nowMs`.
    static func insert(_ numbers: [UInt16], into window: inout ReceivedSequenceWindow, nowMs: Int64 = 0) -> [Bool] {
        numbers.map { window.insert($0, nowMs: nowMs) }
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

    /// A lone number far away (a stray) is new but held apart: the window keeps what it knows,
    /// as the rewriters keep their offsets, so an earlier packet arriving again is still a
    /// repeat. The same stray again is a repeat too.
    @Test func aStrayDoesNotMakeTheWindowForget() {
        var window = ReceivedSequenceWindow()
        let new = Self.insert([100, 101, 30_000, 101, 30_000, 100, 40_000, 20_000, 100, 102], into: &window)
        #expect(new == [true, true, true, false, false, false, true, true, false, true])
    }

    /// A far number followed at once by its successor is a restarted sender: the window starts
    /// again there, with both.
    @Test func aFarNumberAndItsSuccessorStartTheWindowAgain() {
        var window = ReceivedSequenceWindow()
        let new = Self.insert([100, 101, 30_000, 30_001, 30_000, 30_002, 101, 101], into: &window)
        // 101 is now the far one, new each time it comes alone.
        #expect(new == [true, true, true, true, false, true, true, false])
        // Its successor must come next: a number of the current stream in between breaks the pair.
        var other = ReceivedSequenceWindow()
        let broken = Self.insert([100, 30_000, 101, 30_001, 100], into: &other)
        #expect(broken == [true, true, true, true, false])
    }

    /// After a silence of the rewriters' restart time, a far number starts the window at once.
    @Test func aFarNumberAfterASilenceStartsTheWindowAgain() {
        var window = ReceivedSequenceWindow()
        let silence = TrackRewriter.restartSilenceMs
        #expect(Self.insert([100, 101], into: &window, nowMs: 0) == [true, true])
        #expect(Self.insert([30_000], into: &window, nowMs: silence - 1) == [true])
        #expect(Self.insert([30_000, 101], into: &window, nowMs: silence - 1) == [false, false], "not yet")
        // The far packet held apart passed the window: the silence counts from it.
        #expect(Self.insert([40_000], into: &window, nowMs: 2 * silence - 2) == [true])
        #expect(Self.insert([101], into: &window, nowMs: 2 * silence - 2) == [false], "not yet")
        #expect(Self.insert([50_000, 50_000, 50_002, 101], into: &window, nowMs: 3 * silence - 2) == [true, false, true, true])
    }

    /// A late number that is new counts against the silence, though the highest stays: a
    /// subscriber's rewriter may have restarted there (a packet from before its generation, after
    /// a silence), so its output moved on and a stray is a stray to it.
    @Test func aNewLateNumberEndsTheSilence() {
        var window = ReceivedSequenceWindow()
        let silence = TrackRewriter.restartSilenceMs
        #expect(Self.insert([1000, 1001], into: &window, nowMs: 0) == [true, true])
        #expect(Self.insert([900, 901], into: &window, nowMs: silence) == [true, true])
        #expect(Self.insert([1001], into: &window, nowMs: silence + 100) == [false], "a repeat is no new number")
        #expect(Self.insert([31_000, 901, 1001], into: &window, nowMs: silence + 500) == [true, false, false])
        #expect(Self.insert([41_000, 901], into: &window, nowMs: 2 * silence + 499) == [true, false], "nor after the stray")
    }
}
