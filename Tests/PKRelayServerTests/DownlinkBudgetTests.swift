import MediaPlane
import Testing

@testable import PKRelayServer

/// A subscriber transport's budget for the layer allocator, on a scripted clock: the estimate
/// itself once transport-wide feedback has settled, and for a subscriber with receiver reports
/// alone, a cut on heavy loss and a lift after a quiet spell that grows when lifts fail.
@Suite struct DownlinkBudgetTests {
    static func estimate(_ source: BandwidthEstimateReport.Source, bps: Int = 2_000_000, loss: Double = 0) -> BandwidthEstimateReport {
        BandwidthEstimateReport(
            source: source, estimateBps: bps, delayBasedBps: bps, lossBasedBps: bps, acknowledgedBps: nil, delaySignal: "normal", lossFraction: loss,
            roundTripTimeMs: 50, feedbacks: source == .transportWideFeedback ? 10 : 0)
    }

    @Test func transportWideFeedbackLimitsOnlyOnceItHasSettled() {
        var budget = DownlinkBudget()
        #expect(budget.update(estimate: nil, deliveredBps: 1_000_000, nowMs: 0) == nil)
        #expect(budget.update(estimate: Self.estimate(.transportWideFeedback, bps: 400_000), deliveredBps: 1_000_000, nowMs: 1000) == nil)
        #expect(budget.update(estimate: Self.estimate(.transportWideFeedback, bps: 600_000), deliveredBps: 1_000_000, nowMs: 3999) == nil)
        #expect(budget.update(estimate: Self.estimate(.transportWideFeedback, bps: 700_000), deliveredBps: 1_000_000, nowMs: 4000) == 700_000)
    }

    @Test func heavyReportedLossCutsBelowWhatWasDeliveredAndAQuietSpellLiftsIt() {
        var budget = DownlinkBudget()
        // No budget while the link is quiet, whatever the loss-based estimate says.
        #expect(budget.update(estimate: Self.estimate(.receiverReports, bps: 300_000), deliveredBps: 1_500_000, nowMs: 0) == nil)
        // 5 % loss: not heavy.
        #expect(budget.update(estimate: Self.estimate(.receiverReports, loss: 0.05), deliveredBps: 1_500_000, nowMs: 1000) == nil)
        // 40 % loss: the budget is what the subscriber received.
        #expect(budget.update(estimate: Self.estimate(.receiverReports, loss: 0.4), deliveredBps: 1_500_000, nowMs: 2000) == 900_000)
        // The same reported loss a second later is not acted on twice; two seconds later it is.
        #expect(budget.update(estimate: Self.estimate(.receiverReports, loss: 0.4), deliveredBps: 900_000, nowMs: 3000) == 900_000)
        #expect(budget.update(estimate: Self.estimate(.receiverReports, loss: 0.4), deliveredBps: 250_000, nowMs: 4000) == 150_000)
        // Quiet for 6 s after the last cut: lifted.
        #expect(budget.update(estimate: Self.estimate(.receiverReports), deliveredBps: 250_000, nowMs: 9_999) == 150_000)
        #expect(budget.update(estimate: Self.estimate(.receiverReports), deliveredBps: 250_000, nowMs: 10_000) == nil)
    }

    @Test func aLiftThatBringsLossBackDoublesTheNextQuietSpell() {
        var budget = DownlinkBudget()
        _ = budget.update(estimate: Self.estimate(.receiverReports, loss: 0.5), deliveredBps: 1_000_000, nowMs: 0)
        #expect(budget.update(estimate: Self.estimate(.receiverReports), deliveredBps: 200_000, nowMs: 6_000) == nil)
        // Loss again 3 s after the lift: cut, and the next lift waits 12 s.
        #expect(budget.update(estimate: Self.estimate(.receiverReports, loss: 0.5), deliveredBps: 1_000_000, nowMs: 9_000) == 500_000)
        #expect(budget.update(estimate: Self.estimate(.receiverReports), deliveredBps: 200_000, nowMs: 20_999) == 500_000)
        #expect(budget.update(estimate: Self.estimate(.receiverReports), deliveredBps: 200_000, nowMs: 21_000) == nil)
        // Loss long after a lift starts the count again at 6 s.
        _ = budget.update(estimate: Self.estimate(.receiverReports, loss: 0.5), deliveredBps: 1_000_000, nowMs: 100_000)
        #expect(budget.update(estimate: Self.estimate(.receiverReports), deliveredBps: 200_000, nowMs: 105_999) == 500_000)
        #expect(budget.update(estimate: Self.estimate(.receiverReports), deliveredBps: 200_000, nowMs: 106_000) == nil)
    }
}
