/// Which of a stream's recent sequence numbers have arrived, to recognise a packet that arrives
/// again: the network duplicated it, or the sender repaired (or probed with) a packet the relay
/// already had. Forwarding it again would only cost subscribers bandwidth, and an SRTP
/// subscriber would drop it as a replay.
///
/// The window places numbers as ``TrackRewriter`` does, so that it covers every number a
/// subscriber's rewriter would still map to an output number it has used. That also makes the
/// window a guard for SRTP: a second packet under one source number would go out sealed under
/// an index that already sealed the first, a keystream used twice.
/// - Numbers up to ``TrackRewriter/restartDistance`` behind the highest are late packets, and
///   the window remembers them all.
/// - Numbers up to that far ahead move the highest on.
/// - A number further away either way is a restarted sender or a stray packet. It starts the
///   window again there when it comes after ``TrackRewriter/restartSilenceMs`` in which the
///   window passed no packet, or when its predecessor came just before it, far away too. Until
///   then it is held apart and the window keeps what it knows. One further stray must not
///   make it forget: rewriters keep mapping by their offsets after a stray, so a repeat of an
///   earlier packet would otherwise go out again under the same output number.
///
/// A rewriter can still restart where the window does not: one whose output stood still while
/// the window took new late numbers sees a silence the window does not. The media core's SRTP
/// subscribers therefore also record what went out under each output number.
public struct ReceivedSequenceWindow: Sendable {
    /// How many sequence numbers, up to the highest, the window remembers.
    public static let size = 1024
    /// One bit per sequence number modulo ``size``, set once it arrived.
    private var bits: InlineArray<16, UInt64> = .init(repeating: 0)
    private var highest: UInt16 = 0
    /// When the window last passed a packet (a new number, or a far one held apart): a rewriter's
    /// output moves on only with a packet the window passed, so a silence here is a silence for
    /// every rewriter that saw the same packets.
    private var lastPassedMs: Int64 = 0
    private var hasStarted = false
    /// The far number that came last, if no number the window placed came since: its successor,
    /// coming next, starts the window again.
    private var farCandidate: UInt16?

    public init() {}

    /// Notes that `sequenceNumber` arrived at `nowMs`; false when it already had.
    @inline(__always)
    public mutating func insert(_ sequenceNumber: UInt16, nowMs: Int64) -> Bool {
        let ahead = Int(Int16(bitPattern: sequenceNumber &- highest))
        guard hasStarted, ahead >= -TrackRewriter.restartDistance, ahead <= TrackRewriter.restartDistance else {
            return insertFar(sequenceNumber, nowMs: nowMs)
        }
        if ahead <= 0 {
            // A repeat reaches no rewriter, so it leaves a far candidate standing, as there.
            if contains(sequenceNumber) { return false }
            farCandidate = nil
            lastPassedMs = nowMs
            set(sequenceNumber)
            return true
        }
        farCandidate = nil
        // The numbers skipped were lost so far: their bits still hold a lap ago's arrivals.
        var number = highest
        for _ in 0..<ahead {
            number &+= 1
            clear(number)
        }
        highest = sequenceNumber
        lastPassedMs = nowMs
        set(sequenceNumber)
        return true
    }

    /// A number the current window cannot place, the very first included.
    private mutating func insertFar(_ sequenceNumber: UInt16, nowMs: Int64) -> Bool {
        if !hasStarted || nowMs - lastPassedMs >= TrackRewriter.restartSilenceMs {
            start(at: sequenceNumber, nowMs: nowMs)
            return true
        }
        if let candidate = farCandidate {
            if sequenceNumber == candidate { return false }
            if sequenceNumber == candidate &+ 1 {
                start(at: sequenceNumber, nowMs: nowMs)
                set(candidate)
                return true
            }
        }
        farCandidate = sequenceNumber
        lastPassedMs = nowMs
        return true
    }

    private mutating func start(at sequenceNumber: UInt16, nowMs: Int64) {
        bits = .init(repeating: 0)
        hasStarted = true
        highest = sequenceNumber
        lastPassedMs = nowMs
        farCandidate = nil
        set(sequenceNumber)
    }

    @inline(__always)
    private func contains(_ sequenceNumber: UInt16) -> Bool {
        bits[Int(sequenceNumber >> 6) & 15] & (1 << UInt64(sequenceNumber & 63)) != 0
    }

    @inline(__always)
    private mutating func set(_ sequenceNumber: UInt16) {
        bits[Int(sequenceNumber >> 6) & 15] |= 1 << UInt64(sequenceNumber & 63)
    }

    @inline(__always)
    private mutating func clear(_ sequenceNumber: UInt16) {
        bits[Int(sequenceNumber >> 6) & 15] &= ~(1 << UInt64(sequenceNumber & 63))
    }
}
