import CSocketShims
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The RFC 4571 framing of ICE-TCP connections (pkr_stream_*) over a real socket pair: frames
/// split across reads, frames too long to take, and a send buffer that fills.
@Suite("ICE-TCP framing")
struct StreamFramingTests {
    /// A connected pair of stream sockets: the relay's end (wrapped) and the client's.
    static func pair(receiveCapacity: UInt32 = 4096, sendCapacity: UInt32 = 65_536) throws -> (stream: OpaquePointer, client: Int32) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0 else { throw POSIXError(.EIO) }
        let stream = try #require(pkr_stream_create(fds[0], receiveCapacity, sendCapacity))
        return (stream, fds[1])
    }

    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        #expect(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
    }

    /// Every whole frame read so far, and how many were passed over.
    static func frames(_ stream: OpaquePointer, max: UInt32 = 1500) -> (frames: [[UInt8]], skipped: UInt32) {
        var frames: [[UInt8]] = []
        var frame: UnsafeMutablePointer<UInt8>?
        var length: UInt32 = 0
        var skipped: UInt32 = 0
        while pkr_stream_next_frame(stream, max, &frame, &length, &skipped) == 1 {
            frames.append(Array(UnsafeBufferPointer(start: frame, count: Int(length))))
        }
        return (frames, skipped)
    }

    @Test func framesSplitAcrossReadsComeOutWholeAndInOrder() throws {
        let (stream, client) = try Self.pair()
        defer {
            pkr_stream_destroy(stream)
            close(client)
        }
        let first = [UInt8](repeating: 1, count: 300)
        let second = [UInt8](repeating: 2, count: 5)
        let wire = [0x01, 0x2C] + first + [0x00, 0x05] + second
        // The first read ends one byte into the second frame's length.
        Self.write(client, Array(wire[..<303]))
        #expect(pkr_stream_read(stream) == 303)
        #expect(Self.frames(stream).frames == [first])
        Self.write(client, Array(wire[303...]))
        #expect(pkr_stream_read(stream) == Int32(wire.count - 303))
        #expect(Self.frames(stream).frames == [second])
        #expect(pkr_stream_read(stream) == -EAGAIN)
        close(client)
        #expect(pkr_stream_read(stream) == 0, "end of stream")
    }

    @Test func aFrameLongerThanTakenIsPassedOverAcrossReads() throws {
        let (stream, client) = try Self.pair(receiveCapacity: 1024)
        defer {
            pkr_stream_destroy(stream)
            close(client)
        }
        // 3000 bytes announced: more than the buffer holds, read in three parts.
        let long = [UInt8](repeating: 9, count: 3000)
        let after = [UInt8](repeating: 7, count: 10)
        let wire = [0x0B, 0xB8] + long + [0x00, 0x0A] + after
        var skipped: UInt32 = 0
        var got: [[UInt8]] = []
        var offset = 0
        while offset < wire.count {
            let end = min(wire.count, offset + 1000)
            Self.write(client, Array(wire[offset..<end]))
            offset = end
            while pkr_stream_read(stream) > 0 {
                let read = Self.frames(stream)
                got += read.frames
                skipped += read.skipped
            }
        }
        #expect(skipped == 1)
        #expect(got == [after])
    }

    @Test func queuedFramesGoOutFramedAndAFullBufferDropsWholeFrames() throws {
        let (stream, client) = try Self.pair(sendCapacity: 1000)
        defer {
            pkr_stream_destroy(stream)
            close(client)
        }
        // A socket buffer the size of one frame and a bit, so most of what is queued waits.
        var small: Int32 = 1
        #expect(setsockopt(pkr_stream_fd(stream), SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size)) == 0)
        var queued = 0
        for index in 0..<100 {
            let datagram = [UInt8](repeating: UInt8(index), count: 400)
            queued += Int(datagram.withUnsafeBytes { pkr_stream_queue(stream, $0.baseAddress, 400) })
            #expect(pkr_stream_flush(stream) >= 0)
        }
        #expect(queued < 100, "the buffer filled")
        // The client reads everything: whole frames, in order, none cut.
        var wire: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        for _ in 0..<200 {
            _ = pkr_stream_flush(stream)
            let got = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if got > 0 { wire += buffer[..<got] } else if pkr_stream_pending(stream) == 0 { break }
        }
        #expect(wire.count == queued * 402)
        var values: [UInt8] = []
        var offset = 0
        while offset + 2 <= wire.count {
            let length = Int(wire[offset]) << 8 | Int(wire[offset + 1])
            #expect(length == 400)
            values.append(wire[offset + 2])
            #expect(Set(wire[offset + 2..<offset + 2 + length]).count == 1, "a frame is one datagram, whole")
            offset += 2 + length
        }
        #expect(values == values.sorted() && values.count == queued)
    }
}
