import Testing

@testable import MediaPlane

/// `media.gso` and `media.gro` resolve against what the kernel supports: auto follows it, on
/// refuses a kernel without it (the media plane then refuses to start), off stays off.
struct UDPOffloadTests {
    @Test(arguments: [
        (UDPOffload.auto, true, UDPOffload?.some(.on)), (.auto, false, .off),
        (.on, true, .on), (.on, false, nil),
        (.off, true, .off), (.off, false, .off),
    ])
    func resolvesAgainstTheKernel(setting: UDPOffload, supported: Bool, expected: UDPOffload?) {
        #expect(setting.resolved(supported: supported) == expected)
    }

    /// Probing the kernel for UDP_GRO stalls every CPU, so `off` must not probe.
    @Test func offDoesNotAskTheKernel() {
        var asked = false
        func probe() -> Bool {
            asked = true
            return true
        }
        #expect(UDPOffload.off.resolved(supported: probe()) == .off)
        #expect(!asked)
        #expect(UDPOffload.auto.resolved(supported: probe()) == .on)
        #expect(asked)
    }
}
