import StreamCore
import Testing

/// VP8 picture IDs and TL0PICIDX across layer switches: what a decoder needs to see as one stream.
@Suite struct VP8DescriptorRewriterTests {
    /// A payload: descriptor with X, I (15-bit picture ID) and L (TL0PICIDX), then two bytes of frame.
    static func payload(pictureId: UInt16, tl0: UInt8, short: Bool = false) -> [UInt8] {
        if short { return [0x90, 0xC0, UInt8(pictureId & 0x7F), tl0, 0x00, 0xAA] }
        return [0x90, 0xC0, 0x80 | UInt8(pictureId >> 8), UInt8(truncatingIfNeeded: pictureId), tl0, 0x00, 0xAA]
    }

    static func fields(_ payload: [UInt8], short: Bool = false) -> (pictureId: UInt16, tl0: UInt8) {
        short ? (UInt16(payload[2] & 0x7F), payload[3]) : ((UInt16(payload[2] & 0x7F) << 8) | UInt16(payload[3]), payload[4])
    }

    static func run(_ rewriter: inout VP8DescriptorRewriter, generation: UInt32, _ payload: [UInt8]) -> [UInt8] {
        var copy = payload
        copy.withUnsafeMutableBytes { rewriter.rewrite(generation: generation, payload: $0) }
        return copy
    }

    @Test func firstSourceKeepsItsNumbersAndASwitchContinuesThem() {
        var rewriter = VP8DescriptorRewriter()
        var out: [(UInt16, UInt8)] = []
        for picture in UInt16(100)..<103 {
            out.append(Self.fields(Self.run(&rewriter, generation: 1, Self.payload(pictureId: picture, tl0: UInt8(picture - 90)))))
        }
        #expect(out.map(\.0) == [100, 101, 102] && out.map(\.1) == [10, 11, 12])
        // Switch to a layer numbering from 32000 and 200: its pictures follow 102 and 12.
        for picture in UInt16(32000)..<32003 {
            out.append(Self.fields(Self.run(&rewriter, generation: 2, Self.payload(pictureId: picture, tl0: UInt8(picture - 31800)))))
        }
        #expect(out.suffix(3).map(\.0) == [103, 104, 105])
        #expect(out.suffix(3).map(\.1) == [13, 14, 15])
    }

    @Test func packetsOfOnePictureAndRetransmissionsMapAlike() {
        var rewriter = VP8DescriptorRewriter()
        _ = Self.run(&rewriter, generation: 1, Self.payload(pictureId: 5, tl0: 1))
        let second = Self.fields(Self.run(&rewriter, generation: 2, Self.payload(pictureId: 900, tl0: 40)))
        let sameAgain = Self.fields(Self.run(&rewriter, generation: 2, Self.payload(pictureId: 900, tl0: 40)))
        let older = Self.fields(Self.run(&rewriter, generation: 2, Self.payload(pictureId: 899, tl0: 40)))
        #expect(second == sameAgain)
        #expect(second.pictureId == 6 && older.pictureId == 5)
        let next = Self.fields(Self.run(&rewriter, generation: 2, Self.payload(pictureId: 901, tl0: 41)))
        #expect(next.pictureId == 7 && next.tl0 == 3)
    }

    @Test func wrapsInFifteenAndSevenBits() {
        var rewriter = VP8DescriptorRewriter()
        _ = Self.run(&rewriter, generation: 1, Self.payload(pictureId: 0x7FFF, tl0: 255))
        let wrapped = Self.fields(Self.run(&rewriter, generation: 2, Self.payload(pictureId: 10, tl0: 3)))
        #expect(wrapped.pictureId == 0 && wrapped.tl0 == 0)

        var short = VP8DescriptorRewriter()
        _ = Self.run(&short, generation: 1, Self.payload(pictureId: 127, tl0: 1, short: true))
        let next = Self.fields(Self.run(&short, generation: 2, Self.payload(pictureId: 50, tl0: 9, short: true)), short: true)
        #expect(next.pictureId == 0 && next.tl0 == 2)
    }

    @Test func payloadsWithoutTheFieldsOrTooShortAreLeftAlone() {
        var rewriter = VP8DescriptorRewriter()
        for payload: [UInt8] in [[], [0x90], [0x10, 0x00, 0x01], [0x90, 0x80], [0x90, 0x80, 0x85], [0x90, 0x40]] {
            #expect(Self.run(&rewriter, generation: 1, payload) == payload)
        }
    }

    /// Fields located once in the packet as received rewrite each subscriber's copy of just
    /// the payload's head exactly as locating in a whole copy would, across a switch.
    @Test func fieldsLocatedOnceRewriteAHeadLikeTheWholePayload() {
        var whole = VP8DescriptorRewriter()
        var headOnly = VP8DescriptorRewriter()
        let sources: [(UInt32, [UInt8])] = [
            (1, Self.payload(pictureId: 300, tl0: 7)), (1, Self.payload(pictureId: 301, tl0: 8)),
            (2, Self.payload(pictureId: 20, tl0: 200, short: true)), (2, Self.payload(pictureId: 21, tl0: 201, short: true)),
        ]
        for (generation, payload) in sources {
            let packet = payload + [UInt8](repeating: 0x55, count: 40)
            let fields = packet.withUnsafeBytes { VP8DescriptorRewriter.locate(in: $0) }
            #expect(fields != nil)
            #expect(fields.map(\.span) == (payload.count == 6 ? 4 : 5))
            let expected = Self.run(&whole, generation: generation, packet)
            var head = Array(packet.prefix(16))
            head.withUnsafeMutableBytes { headOnly.rewrite(generation: generation, payload: $0, fields: fields!) }
            #expect(head == Array(expected.prefix(16)))
        }
        // A copy shorter than the fields' span is left alone.
        var short = Array(Self.payload(pictureId: 5, tl0: 1).prefix(3))
        let fields = VP8DescriptorFields(pictureIdOffset: 2, pictureIdIsLong: true, tl0Offset: 4)
        short.withUnsafeMutableBytes { headOnly.rewrite(generation: 3, payload: $0, fields: fields) }
        #expect(short == Array(Self.payload(pictureId: 5, tl0: 1).prefix(3)))
    }
}
