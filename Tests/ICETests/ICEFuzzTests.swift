import ICE
import RTPWire
import Testing

@Suite("ICE-lite agent: seeded fuzzing")
struct ICEFuzzTests {
    typealias H = ICEHarness

    @Test("changed bytes in a valid nomination never win a success or move the selection")
    func mutatedRequests() {
        var random = ICEFuzzRandom(seed: 8445)
        let original = H.check(77, useCandidate: true).request()
        for _ in 0..<2000 {
            var request = original
            let changes = 1 + Int(random.next() % 3)
            for _ in 0..<changes {
                request[Int(random.next() % UInt64(request.count))] ^= UInt8(truncatingIfNeeded: random.next() % 255 + 1)
            }
            if random.next() % 8 == 0 {
                request = Array(request.prefix(Int(random.next() % UInt64(request.count))))
            }
            guard request != original else { continue }
            var agent = H.agent()
            let (outcome, response) = H.deliver(request, to: &agent, from: H.wifi, at: 0)
            switch outcome {
            case .respond:
                Issue.record("a changed request was accepted: \(request)")
            case .respondError(let length, _):
                #expect(length == response.count)
                #expect(H.parse(response) != nil, "error responses are well formed")
            case .drop:
                #expect(response.isEmpty)
            }
            #expect(agent.selectedAddress == nil)
        }
    }
}
