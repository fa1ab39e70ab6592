/// When a node renews its lease and when it must stop serving, on the node's own monotonic clock.
///
/// The database times a lease from when it executes a renewal, which is never before the node
/// sent it. So the node counts its deadline from the moment it *sent* the last renewal that
/// succeeded, minus a safety margin: it stops serving before any other node can be granted its
/// rooms, whatever the clocks say, and without trusting the database's clock to match its own.
/// Renewals that fail (the database briefly unreachable) are retried until that deadline, so a
/// short outage of PostgreSQL never stops media.
public struct LeaseKeeper: Sendable, Equatable {
    /// What the node does next.
    public enum Action: Sendable, Equatable {
        /// Nothing until the next tick.
        case none
        /// Send a renewal now (and report ``renewalSent(atMs:)``).
        case renew
        /// The lease can no longer be trusted: stop serving every room now.
        case stopServing
    }

    /// Where the lease stands.
    public enum State: Sendable, Equatable {
        /// Serving, until `deadlineMs` unless a renewal succeeds first.
        case holding(deadlineMs: Int64)
        /// The lease is gone (refused, or its deadline passed): the node serves nothing.
        case lost
    }

    /// How long a lease lasts on the database, in milliseconds.
    public let durationMs: Int64
    /// How often a renewal is sent while holding.
    public let renewEveryMs: Int64
    /// How much earlier than the lease's end the node stops, for scheduling delays.
    public let marginMs: Int64

    public private(set) var state: State
    /// When the last renewal was sent, and whether its answer is still awaited.
    private var lastSentMs: Int64
    private var inFlightSentMs: Int64?

    /// Starts holding a lease registered by a request sent at `registeredSentAtMs`.
    public init(durationMs: Int64, renewEveryMs: Int64, marginMs: Int64, registeredSentAtMs: Int64) {
        self.durationMs = durationMs
        self.renewEveryMs = renewEveryMs
        self.marginMs = marginMs
        self.lastSentMs = registeredSentAtMs
        self.state = .holding(deadlineMs: registeredSentAtMs + durationMs - marginMs)
    }

    /// Whether the node may serve rooms at `nowMs`.
    public func isServing(atMs nowMs: Int64) -> Bool {
        if case .holding(let deadlineMs) = state { return nowMs < deadlineMs }
        return false
    }

    /// What to do at `nowMs`.
    public mutating func tick(nowMs: Int64) -> Action {
        guard case .holding(let deadlineMs) = state else { return .none }
        if nowMs >= deadlineMs {
            state = .lost
            return .stopServing
        }
        if inFlightSentMs == nil, nowMs - lastSentMs >= renewEveryMs { return .renew }
        return .none
    }

    /// A renewal left at `atMs`.
    public mutating func renewalSent(atMs: Int64) {
        lastSentMs = atMs
        inFlightSentMs = atMs
    }

    /// The renewal sent at `sentAtMs` succeeded. An answer to any other renewal than the one in
    /// flight (one given up on) is ignored: crediting it with a later sending time would move
    /// the deadline past the database's.
    public mutating func renewed(sentAtMs: Int64) {
        guard case .holding = state, inFlightSentMs == sentAtMs else { return }
        inFlightSentMs = nil
        state = .holding(deadlineMs: sentAtMs + durationMs - marginMs)
    }

    /// The renewal sent at `sentAtMs` did not reach the database, got no answer, or was given up
    /// on: the next tick tries again; the deadline stays where the last success put it.
    public mutating func renewalFailed(sentAtMs: Int64) {
        guard inFlightSentMs == sentAtMs else { return }
        inFlightSentMs = nil
    }

    /// The renewal in flight, if it was sent at least `ms` before `nowMs`: its send time, so the
    /// caller can give up on it (``renewalFailed(sentAtMs:)``) instead of waiting without end.
    public func renewalOverdue(nowMs: Int64, afterMs ms: Int64) -> Int64? {
        guard let sent = inFlightSentMs, nowMs - sent >= ms else { return nil }
        return sent
    }

    /// The database said the lease is gone: stop serving at once.
    public mutating func renewalRefused() -> Action {
        inFlightSentMs = nil
        guard case .holding = state else { return .none }
        state = .lost
        return .stopServing
    }
}
