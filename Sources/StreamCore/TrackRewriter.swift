/// One outgoing track for one subscriber.
///
/// The subscriber sees a single RTP stream with its own SSRC, whose sequence numbers and
/// timestamps run on without gaps or jumps whatever happens upstream: the publisher may
/// republish, or the relay may switch the track to another source. Each such upstream change is
/// a new *source generation*, a number the caller increases (wrapping) every time it happens.
///
/// Within one generation the mapping from source to output numbers is a fixed offset, modulo
/// 2^16 for sequence numbers and 2^32 for timestamps, so reordered and retransmitted packets map
/// to the same output numbers as they would have in order. The first packet of a newer
/// generation continues from the highest output sequence number plus one, and from the
/// timestamp of that packet plus the wall time elapsed since it was forwarded, converted to clock
/// ticks (at least one tick, so the timestamp always moves).
///
/// A sender may also restart its numbering without a new generation (the same SSRC after an
/// encoder restart, or a jump after a long burst of loss). A packet that cannot belong to the
/// current numbering is told apart from a merely late or stray one by time and distance
/// together: more than ``restartDistance`` numbers away from the highest packet (either way,
/// modulo 2^16), confirmed by the very next packet following it; or any packet from before the
/// generation's start after ``restartSilenceMs`` without output. Such a packet resynchronises the
/// stream as a new generation would (numbers and timestamps run on without a gap) and says so,
/// so that a keyframe is asked for. Late packets and losses within ``restartDistance`` still map
/// by the fixed offset (so NACKs can repair them); a lone stray is dropped.
public struct TrackRewriter: Sendable {
    /// How far from the highest packet a packet may be and still be a late one or follow an
    /// ordinary loss: beyond any retransmission the relay or a sender keeps.
    public static let restartDistance = 1000
    /// A silence after which a packet from before the generation's start is a restarted sender.
    public static let restartSilenceMs: Int64 = 1000

    /// The SSRC the subscriber sees for this track.
    public let outputSSRC: UInt32
    /// The RTP clock rate of the track in Hz, used to turn elapsed wall time into ticks.
    public let clockRate: UInt32

    /// The highest output sequence number produced so far (wrap-aware), or the initial sequence
    /// number minus one before the first packet.
    public var lastOutputSequenceNumber: UInt16 { highestOutputSequenceNumber }
    /// The output timestamp of the packet that carried ``lastOutputSequenceNumber``, or the
    /// initial timestamp before the first packet.
    public var lastOutputTimestamp: UInt32 { highestOutputTimestamp }
    /// The number of packets sent to the subscriber, as reported in RTCP sender reports
    /// (wraps modulo 2^32 like the report field).
    public private(set) var packetsSent: UInt32 = 0
    /// The number of payload octets sent to the subscriber, as reported in RTCP sender reports
    /// (wraps modulo 2^32 like the report field).
    public private(set) var octetsSent: UInt32 = 0

    /// The timestamp given to the very first packet.
    private let initialTimestamp: UInt32
    /// Whether any packet has been rewritten yet.
    @usableFromInline var hasStarted = false
    /// The source generation currently being forwarded.
    @usableFromInline var currentGeneration: UInt32 = 0
    /// Added (wrapping) to source sequence numbers of the current generation.
    @usableFromInline var sequenceNumberOffset: UInt16 = 0
    /// Added (wrapping) to source timestamps of the current generation.
    @usableFromInline var timestampOffset: UInt32 = 0
    /// The source sequence number of the first packet of the current generation; anything
    /// before it cannot be mapped without colliding with the previous generation's numbers.
    @usableFromInline var generationFirstSourceSequenceNumber: UInt16 = 0
    /// The output sequence number given to the first packet of the current generation.
    private var generationFirstOutputSequenceNumber: UInt16 = 0
    /// How far the highest packet of this generation is past its first one, without wrapping, so
    /// that a generation longer than 32768 packets keeps flowing.
    @usableFromInline var generationSpan = 0
    /// The time at which the packet carrying ``lastOutputSequenceNumber`` was rewritten.
    @usableFromInline var lastOutputMs: Int64 = 0
    /// After one packet far from the current numbering: the number that would confirm a
    /// restarted sender if it comes next.
    @usableFromInline var restartCandidate: UInt16?
    /// How many times the numbering was resynchronised within a generation.
    public private(set) var resynchronizations: UInt32 = 0
    /// Storage of ``lastOutputSequenceNumber`` and ``lastOutputTimestamp``.
    @usableFromInline var highestOutputSequenceNumber: UInt16
    @usableFromInline var highestOutputTimestamp: UInt32

    /// Creates a rewriter whose first packet will carry the given sequence number and timestamp.
    ///
    /// - Parameters:
    ///   - outputSSRC: The SSRC the subscriber sees.
    ///   - initialSequenceNumber: The sequence number of the first forwarded packet (normally random).
    ///   - initialTimestamp: The timestamp of the first forwarded packet (normally random).
    ///   - clockRate: The RTP clock rate in Hz (90 000 for video, 48 000 for Opus).
    public init(outputSSRC: UInt32, initialSequenceNumber: UInt16, initialTimestamp: UInt32, clockRate: UInt32) {
        self.outputSSRC = outputSSRC
        self.clockRate = clockRate
        self.initialTimestamp = initialTimestamp
        self.highestOutputSequenceNumber = initialSequenceNumber &- 1
        self.highestOutputTimestamp = initialTimestamp
    }

    /// Maps one source packet to the numbers the subscriber sees.
    ///
    /// - Parameters:
    ///   - sourceGeneration: Which upstream incarnation the packet belongs to; the caller
    ///     increases it (wrapping) whenever the publisher republishes or the source is switched.
    ///   - sequenceNumber: The packet's sequence number as received.
    ///   - timestamp: The packet's timestamp as received.
    ///   - nowMs: The current monotonic time in milliseconds.
    /// - Returns: The outgoing numbers, or `nil` when the packet must be dropped because it
    ///   belongs to an older generation or precedes the first packet of the current one.
    @inlinable
    public mutating func rewrite(
        sourceGeneration: UInt32,
        sequenceNumber: UInt16,
        timestamp: UInt32,
        nowMs: Int64
    ) -> RewrittenPacketNumbers? {
        // The common case, inlined into the caller's per-packet loop: a packet of the current
        // generation that the fixed offset maps. Everything else takes the full path below.
        if hasStarted, sourceGeneration == currentGeneration {
            let highestSource = generationFirstSourceSequenceNumber &+ UInt16(truncatingIfNeeded: generationSpan)
            let delta = Int(Int16(bitPattern: sequenceNumber &- highestSource))
            if delta >= -Self.restartDistance, delta <= Self.restartDistance, generationSpan + delta >= 0 {
                restartCandidate = nil
                if delta > 0 { generationSpan += delta }
                return numbers(sequenceNumber: sequenceNumber, timestamp: timestamp, nowMs: nowMs, resynchronized: false)
            }
        }
        return rewriteStartingOrResynchronizing(sourceGeneration: sourceGeneration, sequenceNumber: sequenceNumber, timestamp: timestamp, nowMs: nowMs)
    }

    /// ``rewrite(sourceGeneration:sequenceNumber:timestamp:nowMs:)`` for the packets it does not
    /// map itself: the first one, a new generation's, or one the current offset cannot map.
    @usableFromInline
    mutating func rewriteStartingOrResynchronizing(
        sourceGeneration: UInt32,
        sequenceNumber: UInt16,
        timestamp: UInt32,
        nowMs: Int64
    ) -> RewrittenPacketNumbers? {
        if !hasStarted {
            hasStarted = true
            beginGeneration(
                sourceGeneration,
                sourceSequenceNumber: sequenceNumber,
                sourceTimestamp: timestamp,
                outputSequenceNumber: lastOutputSequenceNumber &+ 1,
                outputTimestamp: initialTimestamp
            )
        } else if sourceGeneration != currentGeneration {
            // Generations are compared with wrap-around so a long-lived track never stalls.
            guard Int32(bitPattern: sourceGeneration &- currentGeneration) > 0 else { return nil }
            let elapsedTicks = RTPClockTicks.ticks(milliseconds: nowMs - lastOutputMs, clockRate: clockRate)
            beginGeneration(
                sourceGeneration,
                sourceSequenceNumber: sequenceNumber,
                sourceTimestamp: timestamp,
                outputSequenceNumber: lastOutputSequenceNumber &+ 1,
                outputTimestamp: lastOutputTimestamp &+ max(elapsedTicks, 1)
            )
        } else {
            // The current generation's offset cannot map it (rewrite() maps every packet it can):
            // too far from the highest packet to be a late one or an ordinary loss, or from
            // before the generation's first packet. A restarted sender, or a stray packet?
            let highestSource = generationFirstSourceSequenceNumber &+ UInt16(truncatingIfNeeded: generationSpan)
            let delta = Int(Int16(bitPattern: sequenceNumber &- highestSource))
            let far = delta < -Self.restartDistance || delta > Self.restartDistance
            guard isRestart(sequenceNumber: sequenceNumber, far: far, nowMs: nowMs) else { return nil }
            resynchronizations &+= 1
            let elapsedTicks = RTPClockTicks.ticks(milliseconds: nowMs - lastOutputMs, clockRate: clockRate)
            beginGeneration(
                currentGeneration,
                sourceSequenceNumber: sequenceNumber,
                sourceTimestamp: timestamp,
                outputSequenceNumber: lastOutputSequenceNumber &+ 1,
                outputTimestamp: lastOutputTimestamp &+ max(elapsedTicks, 1)
            )
            return numbers(sequenceNumber: sequenceNumber, timestamp: timestamp, nowMs: nowMs, resynchronized: true)
        }
        return numbers(sequenceNumber: sequenceNumber, timestamp: timestamp, nowMs: nowMs, resynchronized: false)
    }

    /// Whether a packet the current numbering cannot place starts a restarted sender's stream:
    /// after a silence, or when far away and followed by its successor.
    private mutating func isRestart(sequenceNumber: UInt16, far: Bool, nowMs: Int64) -> Bool {
        if nowMs - lastOutputMs >= Self.restartSilenceMs { return true }
        guard far else { return false }
        if restartCandidate == sequenceNumber {
            restartCandidate = nil
            return true
        }
        restartCandidate = sequenceNumber &+ 1
        return false
    }

    /// Maps a packet by the current offsets and moves the highest output number on.
    @inlinable
    mutating func numbers(sequenceNumber: UInt16, timestamp: UInt32, nowMs: Int64, resynchronized: Bool) -> RewrittenPacketNumbers {
        let outputSequenceNumber = sequenceNumber &+ sequenceNumberOffset
        let outputTimestamp = timestamp &+ timestampOffset
        if Int16(bitPattern: outputSequenceNumber &- lastOutputSequenceNumber) > 0 {
            highestOutputSequenceNumber = outputSequenceNumber
            highestOutputTimestamp = outputTimestamp
            lastOutputMs = nowMs
        }
        return RewrittenPacketNumbers(sequenceNumber: outputSequenceNumber, timestamp: outputTimestamp, resynchronized: resynchronized)
    }

    /// The source sequence number behind an output sequence number, for answering NACKs from the
    /// buffer of the source of `sourceGeneration` (the sink's current one).
    ///
    /// - Returns: `nil` before the first packet; while `sourceGeneration` has forwarded nothing yet
    ///   (the offsets still belong to the previous source, whose numbers would name other packets
    ///   of this one); and for output numbers that do not belong to the current generation: before
    ///   its first output number or after the highest one produced.
    public func sourceSequenceNumber(forOutput outputSequenceNumber: UInt16, sourceGeneration: UInt32) -> UInt16? {
        guard hasStarted, sourceGeneration == currentGeneration else { return nil }
        let pastHighest = Int(Int16(bitPattern: outputSequenceNumber &- lastOutputSequenceNumber))
        guard pastHighest <= 0, -pastHighest <= generationSpan else { return nil }
        return outputSequenceNumber &- sequenceNumberOffset
    }

    /// The output timestamp for a source timestamp of `sourceGeneration`, for translating the RTP
    /// timestamp of a sender report or a retransmission; `nil` before that generation's first packet.
    public func outputTimestamp(forSource sourceTimestamp: UInt32, sourceGeneration: UInt32) -> UInt32? {
        guard hasStarted, sourceGeneration == currentGeneration else { return nil }
        return sourceTimestamp &+ timestampOffset
    }

    /// Counts one packet as sent to the subscriber, for the sender-report counters.
    ///
    /// - Parameter payloadBytes: The RTP payload size, excluding header and padding.
    public mutating func recordSent(payloadBytes: Int) {
        packetsSent &+= 1
        octetsSent &+= UInt32(truncatingIfNeeded: max(payloadBytes, 0))
    }

    /// Fixes the offsets of a new generation so that its first packet maps to the given numbers.
    private mutating func beginGeneration(
        _ generation: UInt32,
        sourceSequenceNumber: UInt16,
        sourceTimestamp: UInt32,
        outputSequenceNumber: UInt16,
        outputTimestamp: UInt32
    ) {
        currentGeneration = generation
        restartCandidate = nil
        generationFirstSourceSequenceNumber = sourceSequenceNumber
        generationFirstOutputSequenceNumber = outputSequenceNumber
        generationSpan = 0
        sequenceNumberOffset = outputSequenceNumber &- sourceSequenceNumber
        timestampOffset = outputTimestamp &- sourceTimestamp
    }
}
