import MediaPlane

/// What one subscriber transport's downlink may carry, for the layer allocator, derived from the
/// media plane's estimate on each report.
///
/// With transport-wide feedback the estimate itself is the budget, once the estimator has had
/// ``settleMs`` to probe past its start rate (a new viewer is not put on the small layer while
/// its estimate is still climbing). A transport estimated from receiver reports alone starts with
/// no budget (its loss-based estimate grows from a low start and says nothing about the link until
/// loss appears): heavy loss cuts the budget to what the subscriber received, and after a quiet spell
/// without loss the budget is lifted again, to see whether the link carries more; each lift that
/// brings loss back doubles the next quiet spell.
struct DownlinkBudget: Sendable {
    /// How long transport-wide feedback must have driven the estimate before it limits anything.
    static let settleMs: Int64 = 3000
    /// Receiver-report loss above which the budget is cut (the loss-based controller's own cut).
    static let heavyLoss = 0.10
    /// Loss below which the link counts as quiet.
    static let lightLoss = 0.02
    /// The first quiet spell before a lift: short enough that a viewer is back on the top layer
    /// within 10 s of its link recovering (it waits one more report), long enough that a link
    /// still capped shows its loss again before the next lift is tried.
    static let firstQuietMs: Int64 = 6000
    static let longestQuietMs: Int64 = 60_000
    /// Cuts at least this far apart: one receiver report's loss is acted on once.
    static let cutIntervalMs: Int64 = 2000

    var feedbackSinceMs: Int64?
    var lossCapBps: Int?
    var lastCutMs: Int64 = .min / 2
    /// When the last cap was lifted.
    var liftedAtMs: Int64?
    var quietMs = DownlinkBudget.firstQuietMs
    /// Loss this soon after a lift counts against the lift.
    static let liftTrialMs: Int64 = 10_000

    /// Whether transport-wide feedback has driven the estimate for ``settleMs``.
    func hasSettled(nowMs: Int64) -> Bool {
        feedbackSinceMs.map { nowMs - $0 >= Self.settleMs } ?? false
    }

    /// The budget now, bit/s; nil when nothing limits the transport. `deliveredBps`: what the
    /// relay sent on it over the last report's window.
    mutating func update(estimate: BandwidthEstimateReport?, deliveredBps: Int, nowMs: Int64) -> Int? {
        guard let estimate else { return nil }
        if estimate.source == .transportWideFeedback {
            let since = feedbackSinceMs ?? nowMs
            feedbackSinceMs = since
            return nowMs - since >= Self.settleMs ? estimate.estimateBps : nil
        }
        feedbackSinceMs = nil
        if estimate.lossFraction > Self.heavyLoss {
            _ = cut(lossFraction: estimate.lossFraction, deliveredBps: deliveredBps, nowMs: nowMs)
        } else if lossCapBps != nil, estimate.lossFraction < Self.lightLoss, nowMs - lastCutMs >= quietMs {
            lossCapBps = nil
            liftedAtMs = nowMs
        }
        return lossCapBps
    }

    /// Heavy loss in a receiver report (from a report, or announced by the data plane as it
    /// arrived): the budget drops to what the subscriber received (what was sent less the loss
    /// share), once per ``cutIntervalMs``. Returns the budget now.
    ///
    /// Not the loss-based controller's gentler cut by half the loss share: that one runs on every
    /// report and may cut again at once, while a receiver-report budget is cut at most every
    /// ``cutIntervalMs``. A gentle first cut after a cap left the viewer on a layer the link could
    /// not carry for another round (an aiortc viewer took 5.2 s to fall back).
    mutating func cut(lossFraction: Double, deliveredBps: Int, nowMs: Int64) -> Int? {
        guard lossFraction > Self.heavyLoss, nowMs - lastCutMs >= Self.cutIntervalMs, deliveredBps > 0 else { return lossCapBps }
        if lossCapBps == nil {
            // Loss soon after a lift: the link did not carry more, so the next quiet spell is
            // longer; loss long after one starts the count again.
            let failedLift = liftedAtMs.map { nowMs - $0 < Self.liftTrialMs } ?? false
            quietMs = failedLift ? min(quietMs * 2, Self.longestQuietMs) : Self.firstQuietMs
        }
        lossCapBps = min(lossCapBps ?? .max, Int(Double(deliveredBps) * (1 - lossFraction)))
        lastCutMs = nowMs
        return lossCapBps
    }
}
