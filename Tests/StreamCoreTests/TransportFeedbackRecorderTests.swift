import RTPWire
import StreamCore
import Testing

/// The receiving side of transport-wide feedback, on a scripted clock.
@Suite struct TransportFeedbackRecorderTests {
    /// Writes the recorder's next feedback and parses it back: sequence numbers and arrivals.
    static func feedback(_ recorder: TransportFeedbackRecorder, nowUs: Int64) throws -> (feedback: RTCPTransportFeedback, packets: [(UInt16, Int64?)])? {
        var bytes = [UInt8](repeating: 0, count: 1200)
        guard let length = bytes.withUnsafeMutableBytes({ recorder.writeFeedback(senderSSRC: 9, into: $0, at: 0, nowUs: nowUs) }) else { return nil }
        return try Array(bytes[0..<length]).withUnsafeBytes { buffer in
            var iterator = RTCPPacketIterator(buffer)
            let first = iterator.next()
            let view = try #require(first)
            let common = try #require(RTCPFeedback(view: view, in: buffer))
            let parsed = try #require(RTCPTransportFeedback(feedback: common, in: buffer))
            var packets: [(UInt16, Int64?)] = []
            parsed.forEachPacket(in: buffer) { packets.append(($0, $1)) }
            return (parsed, packets)
        }
    }

    @Test func reportsEachArrivalOnceWithItsTime() throws {
        let recorder = TransportFeedbackRecorder()
        #expect(recorder.feedbackDueUs() == nil)
        for index in 0..<10 { recorder.record(sequenceNumber: UInt16(100 + index), arrivalUs: 1_000_000 + Int64(index) * 10_000, ssrc: 77, bytes: 1000) }
        // The first feedback is due at once.
        #expect(recorder.feedbackDueUs() == .min)
        let first = try #require(try Self.feedback(recorder, nowUs: 1_100_000))
        #expect(first.feedback.mediaSSRC == 77 && first.feedback.senderSSRC == 9 && first.feedback.feedbackPacketCount == 0)
        #expect(first.packets.map(\.0) == Array(100..<110))
        #expect(first.packets.map(\.1) == (0..<10).map { 1_000_000 + Int64($0) * 10_000 })
        #expect(!recorder.hasUnreportedPackets)
        #expect(try Self.feedback(recorder, nowUs: 1_100_000) == nil)
        recorder.record(sequenceNumber: 110, arrivalUs: 1_120_000, ssrc: 77, bytes: 1000)
        let second = try #require(try Self.feedback(recorder, nowUs: 1_200_000))
        #expect(second.packets.map(\.0) == [110] && second.feedback.feedbackPacketCount == 1)
    }

    @Test func lostPacketsAreReportedAndALateArrivalIsReportedAgain() throws {
        let recorder = TransportFeedbackRecorder()
        recorder.record(sequenceNumber: 1, arrivalUs: 64_000, ssrc: 1, bytes: 100)
        recorder.record(sequenceNumber: 4, arrivalUs: 66_000, ssrc: 1, bytes: 100)
        let first = try #require(try Self.feedback(recorder, nowUs: 70_000))
        #expect(first.packets.map(\.0) == [1, 2, 3, 4])
        #expect(first.packets.map { $0.1 != nil } == [true, false, false, true])
        // Packet 3 comes after all: the next feedback starts at it again.
        recorder.record(sequenceNumber: 3, arrivalUs: 67_000, ssrc: 1, bytes: 100)
        recorder.record(sequenceNumber: 5, arrivalUs: 68_000, ssrc: 1, bytes: 100)
        let second = try #require(try Self.feedback(recorder, nowUs: 200_000))
        #expect(second.packets.map(\.0) == [3, 4, 5])
        #expect(second.packets.map(\.1) == [67_000, 66_000, 68_000])
    }

    @Test func aCopyKeepsTheFirstArrival() throws {
        let recorder = TransportFeedbackRecorder()
        recorder.record(sequenceNumber: 7, arrivalUs: 64_000, ssrc: 1, bytes: 100)
        recorder.record(sequenceNumber: 7, arrivalUs: 90_000, ssrc: 1, bytes: 100)
        let feedback = try #require(try Self.feedback(recorder, nowUs: 100_000))
        #expect(feedback.packets.map(\.1) == [64_000])
    }

    @Test func numbersWrapAround() throws {
        let recorder = TransportFeedbackRecorder()
        for (index, number) in [UInt16(65_534), 65_535, 0, 1].enumerated() {
            recorder.record(sequenceNumber: number, arrivalUs: 64_000 + Int64(index) * 1000, ssrc: 1, bytes: 100)
        }
        let feedback = try #require(try Self.feedback(recorder, nowUs: 100_000))
        #expect(feedback.packets.map(\.0) == [65_534, 65_535, 0, 1])
    }

    @Test func theCadenceFollowsTheIncomingRate() throws {
        // 2 Mbit/s: feedback would take 5 % every 6.4 ms; the floor is 50 ms.
        let fast = TransportFeedbackRecorder()
        var number: UInt16 = 0
        var now: Int64 = 0
        func feed(_ recorder: TransportFeedbackRecorder, bytesPerMs: Int, untilUs: Int64) {
            while now < untilUs {
                recorder.record(sequenceNumber: number, arrivalUs: now, ssrc: 1, bytes: bytesPerMs)
                number &+= 1
                now += 1000
            }
        }
        feed(fast, bytesPerMs: 250, untilUs: 100_000)
        _ = try Self.feedback(fast, nowUs: now)
        feed(fast, bytesPerMs: 250, untilUs: 200_000)
        _ = try Self.feedback(fast, nowUs: now)
        #expect(fast.intervalUs == TransportFeedbackRecorder.minimumIntervalUs)
        #expect(fast.feedbackDueUs() == nil)
        feed(fast, bytesPerMs: 250, untilUs: 201_000)
        let due: Int64? = fast.feedbackDueUs()
        #expect(due == Int64(250_000))
        // 100 kbit/s: 640 bits are 5 % of it every 128 ms.
        let slow = TransportFeedbackRecorder()
        now = 0
        feed(slow, bytesPerMs: 12, untilUs: 100_000)
        _ = try Self.feedback(slow, nowUs: now)
        feed(slow, bytesPerMs: 12, untilUs: 200_000)
        _ = try Self.feedback(slow, nowUs: now)
        #expect(abs(slow.intervalUs - 133_333) < 1000)
        // Nearly nothing: the ceiling.
        let idle = TransportFeedbackRecorder()
        now = 0
        feed(idle, bytesPerMs: 1, untilUs: 100_000)
        _ = try Self.feedback(idle, nowUs: now)
        feed(idle, bytesPerMs: 1, untilUs: 200_000)
        _ = try Self.feedback(idle, nowUs: now)
        #expect(idle.intervalUs == TransportFeedbackRecorder.maximumIntervalUs)
    }

    @Test func aWindowWiderThanTheRingKeepsItsNewestPart() throws {
        let recorder = TransportFeedbackRecorder()
        recorder.record(sequenceNumber: 0, arrivalUs: 64_000, ssrc: 1, bytes: 100)
        recorder.record(sequenceNumber: 5000, arrivalUs: 65_000, ssrc: 1, bytes: 100)
        let feedback = try #require(try Self.feedback(recorder, nowUs: 70_000))
        #expect(feedback.packets.count == TransportFeedbackRecorder.capacity)
        #expect(feedback.packets.last?.0 == 5000 && feedback.packets.last?.1 == 65_000)
        #expect(!recorder.hasUnreportedPackets)
    }

    @Test func aJumpPastWhatOneFeedbackCanSayIsReportedFromItsFirstArrival() throws {
        let recorder = TransportFeedbackRecorder()
        recorder.record(sequenceNumber: 0, arrivalUs: 64_000, ssrc: 1, bytes: 100)
        recorder.record(sequenceNumber: 5000, arrivalUs: 65_000, ssrc: 1, bytes: 100)
        recorder.record(sequenceNumber: 5001, arrivalUs: 66_000, ssrc: 1, bytes: 100)
        // 120 bytes report at most about 160 packets: the 2046 lost before 5000 do not fit.
        var bytes = [UInt8](repeating: 0, count: 120)
        let length = try #require(bytes.withUnsafeMutableBytes { recorder.writeFeedback(senderSSRC: 9, into: $0, at: 0, nowUs: 70_000) })
        let parsed = try Array(bytes[0..<length]).withUnsafeBytes { buffer -> [(UInt16, Int64?)] in
            var iterator = RTCPPacketIterator(buffer)
            let first = iterator.next()
            let view = try #require(first)
            let common = try #require(RTCPFeedback(view: view, in: buffer))
            let feedback = try #require(RTCPTransportFeedback(feedback: common, in: buffer))
            var packets: [(UInt16, Int64?)] = []
            feedback.forEachPacket(in: buffer) { packets.append(($0, $1)) }
            return packets
        }
        #expect(parsed.map(\.0) == [5000, 5001])
        #expect(parsed.map(\.1) == [65_000, 66_000])
        #expect(!recorder.hasUnreportedPackets)
    }

    @Test func aDeferredFeedbackIsDueAnIntervalLater() {
        let recorder = TransportFeedbackRecorder()
        recorder.record(sequenceNumber: 1, arrivalUs: 64_000, ssrc: 1, bytes: 100)
        #expect(recorder.feedbackDueUs() == .min)
        recorder.deferFeedback(nowUs: 70_000)
        let due: Int64? = recorder.feedbackDueUs()
        #expect(due == Int64(70_000) + TransportFeedbackRecorder.initialIntervalUs)
        #expect(recorder.hasUnreportedPackets)
    }

    @Test func manyPacketsTakeSeveralFeedbacks() throws {
        let recorder = TransportFeedbackRecorder()
        // Each arrival 9 s after the last: no delta fits, one packet per feedback.
        for index in 0..<3 { recorder.record(sequenceNumber: UInt16(index), arrivalUs: 64_000 + Int64(index) * 9_000_000, ssrc: 1, bytes: 100) }
        var reported: [UInt16] = []
        while let feedback = try Self.feedback(recorder, nowUs: 30_000_000) { reported += feedback.packets.map(\.0) }
        #expect(reported == [0, 1, 2])
    }
}
