import StreamCore
import Testing

/// One hand-built RTP payload and whether it begins a keyframe.
struct KeyframeDetectionCase: Sendable, CustomTestStringConvertible {
    /// What the payload is, shown as the test case name.
    let label: String
    /// The payload bytes.
    let payload: [UInt8]
    /// The expected detector answer.
    let isKeyframe: Bool

    var testDescription: String { label }

    init(_ label: String, _ payload: [UInt8], _ isKeyframe: Bool) {
        self.label = label
        self.payload = payload
        self.isKeyframe = isKeyframe
    }
}
