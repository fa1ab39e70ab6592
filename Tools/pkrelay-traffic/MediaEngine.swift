import CSocketShims
import Foundation
import RTPWire
import SecureTransport
import Synchronization
import TrafficCore

/// One media thread of the simulated clients: it sends its publishers' paced audio and video
/// and receives, decrypts and checks its subscribers' packets, over its sockets with epoll and
/// recvmmsg/sendmmsg (CSocketShims) and SRTP protection in place. A run has `--threads` of them,
/// each owning the sockets of the rooms placed on it.
///
/// Threading: the control side talks to the engine only through ``submit(_:)`` (a locked
/// queue and an eventfd) and reads ``snapshot()``; every other property is used only by the
/// engine thread, which is why the class is `@unchecked Sendable`.
final class MediaEngine: @unchecked Sendable {
    /// Payload type of video (VP8) and audio (Opus) tracks.
    static let videoPayloadType: UInt8 = 96
    static let audioPayloadType: UInt8 = 111
    /// Payload type of the video's retransmission stream (`--transport-cc`): the relay's probes
    /// and repairs to the subscribers arrive on it.
    static let rtxPayloadType: UInt8 = 97
    /// The marker that starts the 20-byte trailer of every payload: "PKTT", publisher id, actual
    /// send time, and how late that was against the schedule.
    static let stampMagic: UInt32 = 0x504B_5454
    static let stampLength = 20
    /// How long a forward or link may take to deliver its first keyframe.
    static let watchTimeout: Int64 = 10_000_000
    /// RTCP RTPFB format of transport-wide feedback, and the one-byte extension id the tool
    /// names for transport-wide numbers (`--transport-cc`).
    static let transportWideFeedbackFormat: UInt8 = 15
    static let transportWideExtensionId: UInt8 = 5
    /// How often the engine looks for transport-wide feedback that is due: well within the
    /// 50-250 ms between feedbacks a receiver keeps.
    static let feedbackCheckInterval: Int64 = 5_000

    private let inbox = Mutex<[EngineCommand]>([])
    private let published = Mutex(EngineSnapshot())
    private let running = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)
    private let epollFD: Int32
    private let wakeFD: Int32
    private let wakeToken: UInt64 = UInt64.max
    /// Connected simulated users whose sockets this thread owns (kept by the control side).
    let clients = Atomic<Int>(0)
    let recorder: ControlRecorder
    /// The engine's position among the run's media threads.
    let index: Int

    // Engine-thread state.
    var sockets: [Int: SimSocket] = [:]
    /// The sockets that publish: the send loop visits only these, not every subscriber's.
    var publishers: [SimSocket] = []
    /// The sockets that report transport-wide arrivals.
    var feedbackSockets: [SimSocket] = []
    var totals = PacketTotals()
    /// Counts of streams of closed sockets (and of loss counters replaced on reset).
    var retiredExpected: UInt64 = 0
    var retiredLost: UInt64 = 0
    var retiredDuplicates: UInt64 = 0
    var retiredLate: UInt64 = 0
    var latency = LatencyRecorder()
    var latencyFromSchedule = LatencyRecorder()
    var lateness = LatencyRecorder()
    /// The current second's latency and lateness, handed to the live line when the second ends.
    var intervalLatency = LatencyRecorder()
    var intervalLateness = LatencyRecorder()
    private var intervalSecond: Int64 = 0
    private var completedInterval = EngineInterval()
    var setup = LatencyRecorder()
    var setupTimedOut: UInt64 = 0
    var watches: [KeyframeWatchSpec] = []
    let sendBatch: OpaquePointer
    let receiveBatch: OpaquePointer
    /// The UDP offloads where the kernel has them, as the relay uses them, so that the tool's
    /// own per-datagram cost stays below the relay's: a frame's equal-size packets leave as one
    /// UDP_SEGMENT message, and the relay's runs to a simulated subscriber arrive as one message.
    let segmented: Bool
    let coalescing: Bool
    var rtcpBuffer = [UInt8](repeating: 0, count: 1500)

    init(index: Int, recorder: ControlRecorder, segmented: Bool) throws {
        self.index = index
        self.recorder = recorder
        self.segmented = segmented && pkr_udp_segmentation_supported() != 0
        coalescing = segmented && pkr_udp_receive_offload_supported() != 0
        epollFD = pkr_epoll_create()
        wakeFD = pkr_eventfd_create()
        guard epollFD >= 0, wakeFD >= 0 else { throw ToolFailure(.setupFailed, "cannot create epoll/eventfd") }
        _ = pkr_epoll_add(epollFD, wakeFD, UInt64.max)
        sendBatch = pkr_batch_create(64, 1500)
        receiveBatch = pkr_batch_create(64, coalescing ? 65_536 : 2048)
        let thread = Thread { [self] in self.loop() }
        thread.name = "pkr-traffic-\(index)"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Queues a command for the engine thread.
    func submit(_ command: EngineCommand) {
        inbox.withLock { $0.append(command) }
        pkr_eventfd_signal(wakeFD)
    }

    /// The figures as of the last publication (about every 100 ms, and at stop).
    func snapshot() -> EngineSnapshot {
        published.withLock { $0 }
    }

    /// Stops the thread (bounded wait), closes every socket and returns the final figures.
    func stop() -> EngineSnapshot {
        if running.exchange(false, ordering: .acquiringAndReleasing) {
            pkr_eventfd_signal(wakeFD)
            _ = finished.wait(timeout: .now() + 5)
        }
        return snapshot()
    }

    // MARK: The loop

    private func loop() {
        defer {
            publish()
            for socket in sockets.values { _ = pkr_close(socket.spec.fd) }
            sockets.removeAll()
            publishers.removeAll()
            feedbackSockets.removeAll()
            pkr_batch_destroy(sendBatch)
            pkr_batch_destroy(receiveBatch)
            _ = pkr_close(epollFD)
            _ = pkr_close(wakeFD)
            finished.signal()
        }
        var tokens = [UInt64](repeating: 0, count: 256)
        let begin = MonotonicClock.microseconds()
        var nextHousekeeping = begin
        var nextPublish = begin
        var nextFeedbackCheck = begin
        intervalSecond = begin / 1_000_000
        while running.load(ordering: .acquiring) {
            drainCommands()
            var now = MonotonicClock.microseconds()
            let nextDue = sendDue(now: now)
            if now >= nextHousekeeping {
                housekeeping(now: now)
                nextHousekeeping = now + 20_000
            }
            if now >= nextFeedbackCheck {
                sendDueTransportFeedback(now: now)
                nextFeedbackCheck = now + Self.feedbackCheckInterval
            }
            if now / 1_000_000 != intervalSecond { rotateInterval(now: now) }
            if now >= nextPublish {
                publish()
                nextPublish = now + 100_000
            }
            now = MonotonicClock.microseconds()
            let wait = max(0, min(nextDue, nextHousekeeping) - now)
            // Rounded up: a zero timeout would spin until the next send and count as the tool's load.
            let timeout = Int32(min(5, (wait + 999) / 1000))
            let ready = tokens.withUnsafeMutableBufferPointer { pkr_epoll_wait(epollFD, $0.baseAddress, Int32($0.count), timeout) }
            guard ready > 0 else { continue }
            for index in 0..<Int(ready) {
                let token = tokens[index]
                if token == wakeToken {
                    pkr_eventfd_drain(wakeFD)
                } else if let socket = sockets[Int(token)] {
                    receive(on: socket)
                }
            }
        }
    }

    private func drainCommands() {
        let commands = inbox.withLock { queue in
            let taken = queue
            queue.removeAll()
            return taken
        }
        for command in commands {
            switch command {
            case .open(let spec):
                do {
                    let socket = try SimSocket(spec: spec)
                    sockets[spec.id] = socket
                    if socket.feedbackRecorder != nil { feedbackSockets.append(socket) }
                    _ = pkr_epoll_add(epollFD, spec.fd, UInt64(spec.id))
                } catch {
                    recorder.recordError("srtp-setup")
                    _ = pkr_close(spec.fd)
                }
            case .publish(let id, let spec):
                guard let socket = sockets[id] else { continue }
                if socket.publisher == nil { publishers.append(socket) }
                socket.publisher = PublisherState(spec: spec, now: MonotonicClock.microseconds())
            case .close(let id):
                guard let socket = sockets.removeValue(forKey: id) else { continue }
                if socket.publisher != nil { publishers.removeAll { $0 === socket } }
                if socket.feedbackRecorder != nil { feedbackSockets.removeAll { $0 === socket } }
                retire(socket)
                _ = pkr_epoll_remove(epollFD, socket.spec.fd)
                _ = pkr_close(socket.spec.fd)
            case .proveAddress(let id):
                guard let socket = sockets[id] else { continue }
                sendEmptyReceiverReport(on: socket)
            case .watch(let watch):
                watches.append(watch)
            case .resetMeasurements:
                totals = PacketTotals()
                retiredExpected = 0
                retiredLost = 0
                retiredDuplicates = 0
                retiredLate = 0
                latency.reset()
                latencyFromSchedule.reset()
                lateness.reset()
                intervalLatency.reset()
                intervalLateness.reset()
                for socket in sockets.values {
                    for key in socket.streams.keys {
                        socket.streams[key]!.counter = SequenceLossCounter()
                        socket.streams[key]!.pending.removeAll()
                    }
                }
            }
        }
    }

    private func retire(_ socket: SimSocket) {
        for stream in socket.streams.values {
            retiredExpected += stream.counter.expected
            retiredLost += stream.counter.lost
            retiredDuplicates += stream.counter.duplicates
            retiredLate += stream.counter.late
        }
    }

    /// Cumulative totals including every stream's loss counter.
    private func currentTotals() -> (PacketTotals, Int) {
        var result = totals
        result.expected = retiredExpected
        result.lost = retiredLost
        result.duplicates += retiredDuplicates
        result.late = retiredLate
        var streams = 0
        for socket in sockets.values {
            for stream in socket.streams.values {
                result.expected += stream.counter.expected
                result.lost += stream.counter.lost
                result.duplicates += stream.counter.duplicates
                result.late += stream.counter.late
                streams += 1
            }
        }
        return (result, streams)
    }

    private func publish() {
        let (current, streams) = currentTotals()
        let snapshot = EngineSnapshot(
            totals: current, sockets: sockets.count, streams: streams, latency: latency, latencyFromSchedule: latencyFromSchedule,
            lateness: lateness, setup: setup, setupTimedOut: setupTimedOut, threadCPUMicroseconds: pkr_thread_cpu_us(),
            interval: completedInterval)
        published.withLock { $0 = snapshot }
    }

    /// Ends the live line's second: its latency and lateness go out with the next publication.
    private func rotateInterval(now: Int64) {
        completedInterval = EngineInterval(second: intervalSecond, latency: intervalLatency, lateness: intervalLateness)
        intervalLatency.reset()
        intervalLateness.reset()
        intervalSecond = now / 1_000_000
    }

    // MARK: Housekeeping: NACK retries, keyframe requests, watch timeouts

    private func housekeeping(now: Int64) {
        for socket in sockets.values {
            var position = socket.streams.startIndex
            while position != socket.streams.endIndex {
                let ssrc = socket.streams.keys[position]
                // In place: copying a stream out would retain its arrays for every stream, every time.
                let (resend, requestKeyframe) = Self.housekeep(&socket.streams.values[position], now: now)
                if let resend { sendNACK(on: socket, mediaSSRC: ssrc, sequenceNumbers: resend) }
                if requestKeyframe { sendPLI(on: socket, mediaSSRC: ssrc) }
                position = socket.streams.index(after: position)
            }
        }
        if !watches.isEmpty {
            let before = watches.count
            watches.removeAll { now - $0.sinceMicroseconds > Self.watchTimeout }
            let expired = before - watches.count
            if expired > 0 {
                setupTimedOut += UInt64(expired)
                for _ in 0..<expired { recorder.recordError("setup-keyframe-timeout") }
            }
        }
    }

    /// One stream's NACK retries and keyframe request: the NACKs to send (nil for none) and
    /// whether to send a PLI. Returns at once for a stream with nothing pending.
    private static func housekeep(_ stream: inout ReceiveStream, now: Int64) -> ([UInt16]?, Bool) {
        guard stream.isVideo else { return (nil, false) }
        var resend: [UInt16]?
        if !stream.pending.isEmpty {
            var gaveUp = false
            stream.pending.removeAll { nack in
                if stream.counter.hasReceived(nack.extended) { return true }
                if nack.tries >= 3 && now - nack.lastSent > 150_000 {
                    gaveUp = true
                    return true
                }
                return false
            }
            for index in stream.pending.indices where stream.pending[index].tries < 3 {
                // First NACK at once; retries when the answer is overdue (loopback RTT is tiny).
                if stream.pending[index].tries == 0 || now - stream.pending[index].lastSent > 50_000 {
                    resend = (resend ?? []) + [UInt16(truncatingIfNeeded: stream.pending[index].extended)]
                    stream.pending[index].tries += 1
                    stream.pending[index].lastSent = now
                }
            }
            if gaveUp { stream.gotKeyframe = false }
        }
        var requestKeyframe = false
        if !stream.gotKeyframe && now - stream.lastKeyframeRequest >= 500_000 && stream.counter.received > 0 {
            stream.lastKeyframeRequest = now
            requestKeyframe = true
        }
        return (resend, requestKeyframe)
    }
}
