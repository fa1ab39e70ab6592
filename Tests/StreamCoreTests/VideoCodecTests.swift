import StreamCore
import Testing

@Suite struct VideoCodecTests {
    @Test(arguments: [
        ("VP8", VideoCodec.vp8), ("vp8", .vp8), ("Vp9", .vp9), ("h264", .h264), ("H264", .h264), ("av1", .av1),
    ])
    func namesMatchIgnoringCase(name: String, codec: VideoCodec) {
        #expect(VideoCodec.named(name) == codec)
    }

    @Test(arguments: ["", "opus", "h265", "vp 8"])
    func unknownNamesAreRejected(name: String) {
        #expect(VideoCodec.named(name) == nil)
    }

    @Test func rawValuesAreSDPEncodingNames() {
        #expect(VideoCodec.allCases.map(\.rawValue) == ["VP8", "VP9", "H264", "AV1"])
    }
}
