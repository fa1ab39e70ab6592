import RTPWire

/// The receiving side of transport-wide congestion control for one transport: when each packet,
/// by its transport-wide sequence number, arrived, and the feedback (RTCP RTPFB FMT 15) that
/// reports them to the sender at the cadence libwebrtc's receiver keeps.
///
/// Arrivals live in a ring of ``capacity`` slots indexed by the low bits of the unwrapped
/// sequence number, allocated once: recording costs an unwrap and two stores, never a search or
/// an allocation. Each feedback reports the packets from the first one not yet reported to the
/// highest received; a packet that arrives after its number was reported lost moves that start
/// back, so it is reported again with its arrival, as libwebrtc's receiver does (its sender
/// takes the later report).
///
/// The interval between feedbacks follows the incoming rate so that feedback takes about 5 % of
/// it, between 50 and 250 ms (100 ms until a rate is known). It takes the time as an argument;
/// one thread owns it (not `Sendable`).
public final class TransportFeedbackRecorder {
    /// Packets the ring remembers: also the most one feedback window may span.
    public static let capacity = 2048
    /// The shortest and longest time between feedbacks, and the first one's.
    public static let minimumIntervalUs: Int64 = 50_000
    public static let maximumIntervalUs: Int64 = 250_000
    public static let initialIntervalUs: Int64 = 100_000
    /// The share of the incoming rate feedback may take, and what one feedback is reckoned to
    /// weigh on the wire (RTCP, SRTCP trailer, IP and UDP headers).
    static let bandwidthShare = 0.05
    static let feedbackBits = 80.0 * 8

    private let sequences: UnsafeMutablePointer<Int64>
    private let arrivals: UnsafeMutablePointer<Int64>
    private var unwrapper = SequenceUnwrapper()
    /// The first packet not yet reported (nil before the first packet), and the highest received.
    private var windowStart: Int64?
    private var highest: Int64 = .min
    /// The SSRC of the last packet recorded: the feedback's media SSRC, as libwebrtc fills it.
    public private(set) var mediaSSRC: UInt32 = 0
    /// The feedback packet count the next feedback carries.
    public private(set) var feedbackPacketCount: UInt8 = 0
    /// When the last feedback went, and the bytes recorded since (for the incoming rate).
    private var lastFeedbackUs: Int64?
    private var bytesSinceFeedback = 0
    /// The time between feedbacks now in force.
    public private(set) var intervalUs = TransportFeedbackRecorder.initialIntervalUs
    /// Packets recorded, and packets recorded twice (the first arrival counts).
    public private(set) var packetsRecorded: UInt64 = 0
    public private(set) var feedbacksWritten: UInt64 = 0

    public init() {
        sequences = .allocate(capacity: Self.capacity)
        sequences.initialize(repeating: -1, count: Self.capacity)
        arrivals = .allocate(capacity: Self.capacity)
        arrivals.initialize(repeating: 0, count: Self.capacity)
    }

    deinit {
        sequences.deallocate()
        arrivals.deallocate()
    }

    /// A packet with transport-wide sequence number `sequenceNumber` and `bytes` bytes arrived at
    /// `arrivalUs` (the receiver's monotonic clock).
    @inline(__always)
    public func record(sequenceNumber: UInt16, arrivalUs: Int64, ssrc: UInt32, bytes: Int) {
        let number = unwrapper.unwrap(sequenceNumber)
        packetsRecorded &+= 1
        bytesSinceFeedback &+= bytes
        mediaSSRC = ssrc
        if number > highest {
            highest = number
        } else if highest - number >= Int64(Self.capacity) {
            // Older than anything the ring still holds.
            return
        }
        let slot = Int(number & Int64(Self.capacity - 1))
        // A copy of a packet already here keeps the first arrival.
        if sequences[slot] == number { return }
        sequences[slot] = number
        arrivals[slot] = arrivalUs
        if let start = windowStart {
            if number < start { windowStart = number }
            // A window wider than the ring loses its oldest part.
            if highest - windowStart! >= Int64(Self.capacity) { windowStart = highest - Int64(Self.capacity) + 1 }
        } else {
            windowStart = number
        }
    }

    /// Whether packets wait to be reported.
    public var hasUnreportedPackets: Bool {
        guard let windowStart else { return false }
        return windowStart <= highest
    }

    /// When the next feedback is due, or nil while nothing waits to be reported.
    public func feedbackDueUs() -> Int64? {
        guard hasUnreportedPackets else { return nil }
        guard let lastFeedbackUs else { return .min }
        return lastFeedbackUs + intervalUs
    }

    /// Writes one feedback for the packets waiting, from their start to the highest received or
    /// as many as fit, into `buffer` at `offset`, and moves the start past them; nil when nothing
    /// waits or nothing fits. Call it again while ``hasUnreportedPackets`` to report the rest.
    /// The first call after the interval passed also moves the cadence on.
    public func writeFeedback(senderSSRC: UInt32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, nowUs: Int64) -> Int? {
        guard var start = windowStart, start <= highest else { return nil }
        var written = write(from: start, senderSSRC: senderSSRC, into: buffer, at: offset)
        if written == nil {
            // Nothing received among the first packets the buffer can report (a jump of
            // thousands of numbers, or packets pushed out of the ring): report from the first
            // received one on; nothing received at all, start afresh after the highest.
            guard let first = firstReceived(from: start) else {
                windowStart = highest + 1
                return nil
            }
            guard first > start else { return nil }
            start = first
            windowStart = first
            written = write(from: start, senderSSRC: senderSSRC, into: buffer, at: offset)
        }
        guard let written else { return nil }
        windowStart = start + Int64(written.packetCount)
        feedbackPacketCount &+= 1
        feedbacksWritten &+= 1
        noteFeedback(nowUs: nowUs)
        return written.length
    }

    /// Puts the next feedback off by one interval without writing one (the transport cannot send
    /// now, or nothing fit): a timer that finds it due again at once would spin.
    public func deferFeedback(nowUs: Int64) {
        lastFeedbackUs = nowUs
    }

    /// One feedback of the window from `start` to the highest received.
    private func write(
        from start: Int64, senderSSRC: UInt32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
    )
        -> (length: Int, packetCount: Int)?
    {
        let view = Window(sequences: sequences, arrivals: arrivals, start: start, mask: Int64(Self.capacity - 1))
        return RTCPWriter.writeTransportFeedback(
            senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, baseSequenceNumber: UInt16(truncatingIfNeeded: start),
            maximumPacketCount: Int(highest - start + 1), feedbackPacketCount: feedbackPacketCount, arrivals: view, into: buffer, at: offset)
    }

    /// The first number from `start` to the highest whose arrival the ring holds.
    private func firstReceived(from start: Int64) -> Int64? {
        var number = max(start, highest - Int64(Self.capacity) + 1)
        while number <= highest {
            if sequences[Int(number & Int64(Self.capacity - 1))] == number { return number }
            number += 1
        }
        return nil
    }

    /// Moves the cadence on: the interval from the rate since the last feedback.
    private func noteFeedback(nowUs: Int64) {
        if let last = lastFeedbackUs {
            let elapsed = nowUs - last
            guard elapsed >= Self.minimumIntervalUs / 2 else { return }
            let rate = Double(bytesSinceFeedback) * 8 * 1_000_000 / Double(elapsed)
            if rate > 0 {
                let interval = Self.feedbackBits / (Self.bandwidthShare * rate) * 1_000_000
                intervalUs = min(Self.maximumIntervalUs, max(Self.minimumIntervalUs, Int64(interval)))
            }
        }
        lastFeedbackUs = nowUs
        bytesSinceFeedback = 0
    }

    /// The ring as the feedback writer reads it, from the window's start.
    struct Window: TransportFeedbackArrivals {
        let sequences: UnsafeMutablePointer<Int64>
        let arrivals: UnsafeMutablePointer<Int64>
        let start: Int64
        let mask: Int64

        @inline(__always)
        func arrivalUs(at offset: Int) -> Int64? {
            let number = start + Int64(offset)
            let slot = Int(number & mask)
            return sequences[slot] == number ? arrivals[slot] : nil
        }
    }
}
