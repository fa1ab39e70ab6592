import RTPWire

extension ICELiteAgent {
    /// Checks the timeouts at time `now` and reports `.expired` once, when the agent gives up:
    /// after the consent timeout without a valid check from the selected address, or after
    /// the connect timeout without any nomination. Call it periodically, say once a second.
    public mutating func checkConsent(at now: UInt64) -> ICEAgentEvent? {
        switch state {
        case .expired:
            return nil
        case .new, .checking:
            guard Self.elapsed(from: createdAt, to: now) >= timeouts.connect else { return nil }
            return expire(.neverConnected)
        case .connected:
            let refreshed = consentRefreshedAt ?? createdAt
            guard Self.elapsed(from: refreshed, to: now) >= timeouts.consent else { return nil }
            return expire(.consentLapsed)
        }
    }

    /// Records a request that passed every check, after its response has been written.
    mutating func recordValidCheck(from source: STUNAddress, nominating: Bool, at now: UInt64) -> ICEAgentEvent? {
        if nominating {
            // The latest nomination wins, so a peer that moves to another network (or whose
            // NAT rebinds) and nominates its new path takes the media with it.
            let changed = selectedAddress != source
            selectedAddress = source
            if candidateAddress == source { candidateAddress = nil }
            state = .connected
            consentRefreshedAt = now
            return changed ? .selectedAddressChanged(source) : nil
        }
        if source == selectedAddress {
            consentRefreshedAt = now
        } else {
            candidateAddress = source
            if state == .new { state = .checking }
        }
        return nil
    }

    private mutating func expire(_ reason: ICEExpiryReason) -> ICEAgentEvent {
        state = .expired(reason)
        return .expired(reason)
    }

    /// Nanoseconds from `start` to `end`, zero if the clock reads earlier than `start`.
    static func elapsed(from start: UInt64, to end: UInt64) -> UInt64 {
        end > start ? end - start : 0
    }
}
