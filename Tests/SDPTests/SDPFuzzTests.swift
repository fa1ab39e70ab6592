import SDP
import Testing

@Suite("Fuzzing")
struct SDPFuzzTests {
    /// Reads `text`; when it is accepted, checks that writing it gives text that reads back
    /// and writes the same. Returns a failure message, or nil.
    static func checkRoundTrip(_ text: String) -> (accepted: Bool, failure: String?) {
        guard let description = try? SessionDescription(parsing: text) else { return (false, nil) }
        let written = description.serialized()
        guard let reread = try? SessionDescription(parsing: written) else { return (true, "written text does not read back:\n\(written)") }
        guard reread.serialized() == written else { return (true, "writing is not stable for:\n\(written)") }
        return (true, nil)
    }

    @Test(
        "mutated offers never crash the parser or the publish negotiation",
        arguments: [
            (SDPFixtures.chromiumOffer, 1), (SDPFixtures.chromiumSimulcastOffer, 2), (SDPFixtures.firefoxOffer, 3),
            (SDPFixtures.aiortcOffer, 4),
        ] as [(String, UInt64)])
    func mutatedOffers(offer: String, seed: UInt64) {
        var mutator = SDPMutator(random: SplitMix(seed: seed))
        let negotiator = RelayNegotiator()
        var accepted = 0
        var rejected = 0
        var answered = 0
        var failures: [String] = []
        for _ in 0..<400 {
            let text = mutator.mutate(offer)
            let (parsed, failure) = Self.checkRoundTrip(text)
            if parsed { accepted += 1 } else { rejected += 1 }
            if let failure { failures.append(failure) }
            if let answer = try? negotiator.answer(toPublishOffer: text, relay: NegotiationFixtures.relay) {
                answered += 1
                if (try? SessionDescription(parsing: answer.sdp)) != answer.sessionDescription {
                    failures.append("answer does not read back:\n\(answer.sdp)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        #expect(accepted > 0)
        #expect(rejected > 0)
        #expect(answered > 0)
    }

    @Test("mutated subscription answers never crash answer reading")
    func mutatedAnswers() throws {
        let negotiator = RelayNegotiator()
        let offer = try negotiator.offer(
            forSubscription: [SubscriptionFixtures.aliceAudio, SubscriptionFixtures.aliceVideo], relay: NegotiationFixtures.relay,
            version: 1)
        var mutator = SDPMutator(random: SplitMix(seed: 5))
        var read = 0
        var refused = 0
        for _ in 0..<600 {
            do {
                _ = try negotiator.parseAnswer(mutator.mutate(SubscriptionFixtures.chromiumAnswer), toSubscriptionOffer: offer)
                read += 1
            } catch {
                refused += 1
            }
        }
        #expect(read > 0)
        #expect(refused > 0)
    }

    @Test("random bytes never crash the parser")
    func garbage() {
        var mutator = SDPMutator(random: SplitMix(seed: 6))
        var failures: [String] = []
        var rejected = 0
        for _ in 0..<2000 {
            let (parsed, failure) = Self.checkRoundTrip(mutator.garbage())
            if !parsed { rejected += 1 }
            if let failure { failures.append(failure) }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        #expect(rejected > 0)
    }
}
