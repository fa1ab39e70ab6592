import Cluster
import Testing

/// The node's side of its lease, with time scripted in milliseconds.
struct LeaseKeeperTests {
    /// A 10 s lease renewed every 2 s, stopping 1 s early; registered by a request sent at t=1000.
    static func keeper() -> LeaseKeeper {
        LeaseKeeper(durationMs: 10_000, renewEveryMs: 2_000, marginMs: 1_000, registeredSentAtMs: 1_000)
    }

    @Test func renewsOnItsCadenceAndCountsFromTheSendingTime() {
        var keeper = Self.keeper()
        #expect(keeper.state == .holding(deadlineMs: 10_000))
        #expect(keeper.tick(nowMs: 2_999) == .none)
        #expect(keeper.tick(nowMs: 3_000) == .renew)
        keeper.renewalSent(atMs: 3_000)
        // One renewal at a time: no second one while the first is awaited.
        #expect(keeper.tick(nowMs: 5_500) == .none)
        // Answered late: the deadline still counts from when it was sent.
        keeper.renewed(sentAtMs: 3_000)
        #expect(keeper.state == .holding(deadlineMs: 12_000))
        #expect(keeper.tick(nowMs: 5_500) == .renew)
        #expect(keeper.isServing(atMs: 11_999) && !keeper.isServing(atMs: 12_000))
    }

    @Test func aDatabaseOutageShorterThanTheLeaseKeepsServing() {
        var keeper = Self.keeper()
        var now: Int64 = 1_000
        var failures = 0
        // PostgreSQL unreachable from t=1000 to t=8000: every renewal fails, the node keeps serving.
        while now < 8_000 {
            if keeper.tick(nowMs: now) == .renew {
                keeper.renewalSent(atMs: now)
                keeper.renewalFailed(sentAtMs: now)
                failures += 1
            }
            #expect(keeper.isServing(atMs: now))
            now += 250
        }
        // Tried at 3000, 5000 and 7000; the deadline stayed at 10000.
        #expect(failures == 3)
        #expect(keeper.tick(nowMs: 8_000) == .none)
        // Back at t=8000: the renewal due at 9000 succeeds and the deadline moves on.
        #expect(keeper.tick(nowMs: 9_000) == .renew)
        keeper.renewalSent(atMs: 9_000)
        keeper.renewed(sentAtMs: 9_000)
        #expect(keeper.state == .holding(deadlineMs: 18_000))
    }

    @Test func anOutageAsLongAsTheLeaseStopsServingBeforeTheDatabaseWouldLetGo() {
        var keeper = Self.keeper()
        var now: Int64 = 1_000
        var actions: [LeaseKeeper.Action] = []
        while now <= 12_000 {
            let action = keeper.tick(nowMs: now)
            if action == .renew {
                keeper.renewalSent(atMs: now)
                keeper.renewalFailed(sentAtMs: now)
            } else if action != .none {
                actions.append(action)
            }
            now += 100
        }
        // Stopped at t=10000: the database's lease, granted no earlier than t=1000, ends at 11000 or later.
        #expect(actions == [.stopServing])
        #expect(keeper.state == .lost && !keeper.isServing(atMs: 10_000))
        #expect(keeper.tick(nowMs: 20_000) == .none)
    }

    @Test func aRefusedRenewalStopsAtOnce() {
        var keeper = Self.keeper()
        #expect(keeper.tick(nowMs: 3_000) == .renew)
        keeper.renewalSent(atMs: 3_000)
        #expect(keeper.renewalRefused() == .stopServing)
        #expect(keeper.state == .lost)
        #expect(keeper.renewalRefused() == .none)
        keeper.renewed(sentAtMs: 3_000)
        #expect(keeper.state == .lost, "a late success does not bring a lost lease back")
    }

    @Test func aHangingRenewalIsGivenUpAndItsLateAnswerIgnored() {
        var keeper = Self.keeper()
        #expect(keeper.tick(nowMs: 3_000) == .renew)
        keeper.renewalSent(atMs: 3_000)
        // The database does not answer: overdue after one renewal interval, given up on.
        #expect(keeper.renewalOverdue(nowMs: 4_999, afterMs: 2_000) == nil)
        #expect(keeper.renewalOverdue(nowMs: 5_000, afterMs: 2_000) == 3_000)
        keeper.renewalFailed(sentAtMs: 3_000)
        #expect(keeper.tick(nowMs: 5_000) == .renew)
        keeper.renewalSent(atMs: 5_000)
        // The first renewal's answer arrives now: it must not count as the second one's.
        keeper.renewed(sentAtMs: 3_000)
        #expect(keeper.state == .holding(deadlineMs: 10_000))
        keeper.renewed(sentAtMs: 5_000)
        #expect(keeper.state == .holding(deadlineMs: 14_000))
        // Without answers the deadline still comes.
        #expect(keeper.tick(nowMs: 14_000) == .stopServing)
    }
}
