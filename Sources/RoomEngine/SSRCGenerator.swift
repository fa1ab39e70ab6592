/// Picks output SSRCs: SplitMix64 from a seed, never 0, never one already in use.
struct SSRCGenerator: Sendable, Hashable {
    var state: UInt64
    var inUse: Set<UInt32> = []

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt32 {
        while true {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            let candidate = UInt32(truncatingIfNeeded: z)
            if candidate != 0, !inUse.contains(candidate) {
                inUse.insert(candidate)
                return candidate
            }
        }
    }

    mutating func release(_ ssrc: UInt32) { inUse.remove(ssrc) }
}
