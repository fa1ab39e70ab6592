import StreamCore
import Testing

@Suite struct KeyframeDetectorTests {
    /// The start of a real VP8 key frame: 3-byte frame tag (P = 0, version 0, shown, first
    /// partition size), start code 9d 01 2a, then 640x480.
    static let vp8KeyframeHeader: [UInt8] = [0x50, 0x42, 0x00, 0x9D, 0x01, 0x2A, 0x80, 0x02, 0xE0, 0x01]
    /// The start of a VP8 inter frame: frame tag with P = 1 and no start code.
    static let vp8InterframeHeader: [UInt8] = [0x31, 0x0B, 0x00, 0x11, 0x22]

    // Descriptor bytes that follow a field which must be skipped are odd on purpose: read as a
    // frame tag by mistake they would say "inter frame".
    static let vp8Cases: [KeyframeDetectionCase] = [
        .init("real key frame, plain descriptor", [0x10] + vp8KeyframeHeader, true),
        .init("inter frame, plain descriptor", [0x10] + vp8InterframeHeader, false),
        .init("key frame, not a partition start", [0x00] + vp8KeyframeHeader, false),
        .init("key frame, partition 1", [0x11] + vp8KeyframeHeader, false),
        .init("key frame, non-reference bit set", [0x30] + vp8KeyframeHeader, true),
        .init("7-bit picture id", [0x90, 0x80, 0x05] + vp8KeyframeHeader, true),
        .init("15-bit picture id", [0x90, 0x80, 0x81, 0x23] + vp8KeyframeHeader, true),
        .init("picture id, TL0PICIDX, TID and KEYIDX", [0x90, 0xF0, 0x81, 0x23, 0x07, 0xE1] + vp8KeyframeHeader, true),
        .init("all extensions, inter frame", [0x90, 0xF0, 0x81, 0x23, 0x07, 0xE1] + vp8InterframeHeader, false),
        .init("KEYIDX only", [0x90, 0x10, 0x21] + vp8KeyframeHeader, true),
        .init("TL0PICIDX only", [0x90, 0x40, 0x03] + vp8KeyframeHeader, true),
        .init("empty", [], false),
        .init("descriptor only", [0x10], false),
        .init("X set, extension byte missing", [0x90], false),
        .init("picture id missing", [0x90, 0x80], false),
        .init("second picture id byte missing", [0x90, 0x80, 0x81], false),
        .init("all extensions, frame tag missing", [0x90, 0xF0, 0x81, 0x23, 0x07, 0xE1], false),
    ]

    static let vp9Cases: [KeyframeDetectionCase] = [
        .init("B set, P clear", [0x08, 0x82, 0x49, 0x83], true),
        .init("B and E set, P clear", [0x0C, 0x82], true),
        .init("inter predicted", [0x48, 0x82], false),
        .init("not the start of a frame", [0x04, 0x82], false),
        .init("15-bit picture id", [0x88, 0x81, 0x02, 0x82], true),
        .init("7-bit picture id", [0x88, 0x01, 0x82], true),
        .init("layer indices, non-flexible", [0xA8, 0x81, 0x02, 0x00, 0x05, 0x82], true),
        .init("layer indices, flexible", [0xB8, 0x01, 0x00, 0x82], true),
        .init(
            "scalability structure with resolutions and picture group",
            [0x8A, 0x01, 0x38, 0x01, 0x40, 0x00, 0xB4, 0x02, 0x80, 0x01, 0x68, 0x01, 0x04, 0x01, 0x82], true),
        .init("scalability structure, no resolutions", [0x0A, 0x00, 0x82], true),
        .init("empty", [], false),
        .init("descriptor only", [0x08], false),
        .init("second picture id byte missing", [0x88, 0x81], false),
        .init("picture id, no frame data", [0x88, 0x81, 0x02], false),
        .init("TL0PICIDX missing", [0xA8, 0x81, 0x02, 0x00], false),
        .init(
            "scalability structure cut in resolutions",
            [0x8A, 0x01, 0x38, 0x01, 0x40, 0x00, 0xB4, 0x02], false),
        .init(
            "scalability structure cut in picture group",
            [0x8A, 0x01, 0x38, 0x01, 0x40, 0x00, 0xB4, 0x02, 0x80, 0x01, 0x68, 0x01, 0x04], false),
    ]

    static let h264Cases: [KeyframeDetectionCase] = [
        .init("IDR slice", [0x65, 0x88, 0x84], true),
        .init("sequence parameter set", [0x67, 0x42, 0xC0, 0x1F], true),
        .init("picture parameter set", [0x68, 0xCE, 0x3C, 0x80], false),
        .init("non-IDR slice", [0x41, 0x9A, 0x02], false),
        .init("SEI", [0x06, 0x05], false),
        .init("STAP-A with SPS and PPS", [0x78, 0x00, 0x02, 0x67, 0x42, 0x00, 0x02, 0x68, 0xCE], true),
        .init("STAP-A with SEI then IDR", [0x78, 0x00, 0x02, 0x06, 0x05, 0x00, 0x02, 0x65, 0x88], true),
        .init("STAP-A without keyframe units", [0x78, 0x00, 0x02, 0x41, 0x9A, 0x00, 0x02, 0x68, 0xCE], false),
        .init("STAP-A, unit size past the end", [0x78, 0x00, 0x05, 0x67, 0x42], false),
        .init("STAP-A, zero unit size", [0x78, 0x00, 0x00, 0x00, 0x01, 0x67], false),
        .init("STAP-A, second size cut", [0x78, 0x00, 0x02, 0x41, 0x9A, 0x00], false),
        .init("STAP-A, size only", [0x78, 0x00], false),
        .init("STAP-A header only", [0x78], false),
        .init("FU-A start of IDR", [0x7C, 0x85, 0x88, 0x84], true),
        .init("FU-A middle of IDR", [0x7C, 0x05, 0x11], false),
        .init("FU-A end of IDR", [0x7C, 0x45, 0x11], false),
        .init("FU-A start of non-IDR slice", [0x5C, 0x81, 0x9A], false),
        .init("FU-A header missing", [0x7C], false),
        .init("empty", [], false),
    ]

    static let av1Cases: [KeyframeDetectionCase] = [
        .init("new coded video sequence", [0x18, 0x0A, 0x0B, 0x00, 0x00], true),
        .init("N set with one OBU element", [0x08, 0x12, 0x00], true),
        .init("N clear", [0x10, 0x32, 0x10], false),
        .init("continuation, N clear", [0xC0, 0x05, 0x01], false),
        .init("aggregation header only", [0x18], false),
        .init("empty", [], false),
    ]

    func check(_ codec: VideoCodec, _ testCase: KeyframeDetectionCase) {
        let detected = testCase.payload.withUnsafeBytes {
            KeyframeDetector.isKeyframe(codec: codec, payload: $0)
        }
        #expect(detected == testCase.isKeyframe, "\(codec.rawValue): \(testCase.label)")
    }

    @Test(arguments: vp8Cases) func vp8(_ testCase: KeyframeDetectionCase) { check(.vp8, testCase) }
    @Test(arguments: vp9Cases) func vp9(_ testCase: KeyframeDetectionCase) { check(.vp9, testCase) }
    @Test(arguments: h264Cases) func h264(_ testCase: KeyframeDetectionCase) { check(.h264, testCase) }
    @Test(arguments: av1Cases) func av1(_ testCase: KeyframeDetectionCase) { check(.av1, testCase) }

    /// Every prefix of every keyframe payload must be handled without reading past its end;
    /// a prefix too short to hold the frame start must never count as a keyframe.
    @Test(arguments: VideoCodec.allCases)
    func everyPrefixIsSafe(codec: VideoCodec) {
        let cases: [KeyframeDetectionCase] =
            switch codec {
            case .vp8: Self.vp8Cases
            case .vp9: Self.vp9Cases
            case .h264: Self.h264Cases
            case .av1: Self.av1Cases
            }
        var prefixesChecked = 0
        for testCase in cases {
            for length in 0...testCase.payload.count {
                let prefix = Array(testCase.payload.prefix(length))
                let detected = prefix.withUnsafeBytes { KeyframeDetector.isKeyframe(codec: codec, payload: $0) }
                if length == 0 { #expect(!detected) }
                if detected { #expect(testCase.isKeyframe, "\(testCase.label), \(length) bytes") }
                prefixesChecked += 1
            }
        }
        #expect(prefixesChecked > cases.count)
    }
}
