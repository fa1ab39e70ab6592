/// Ranks RFC 6464 audio levels (-dBov: 0 loudest, 127 silence) for volume reports.
public enum AudioLevelRanking {
    /// The `count` loudest entries, loudest first; equal levels keep key order so reports are stable.
    public static func loudest<Key: Comparable>(_ levels: [Key: UInt8], count: Int) -> [(key: Key, level: UInt8)] {
        guard count > 0 else { return [] }
        let sorted = levels.sorted { $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key }
        return sorted.prefix(count).map { (key: $0.key, level: $0.value) }
    }

    /// A -dBov level as a linear volume 0-255: `round(255 * 10^(-level/20))`; 127 gives 0.
    public static func linearVolume(level: UInt8) -> Int {
        let clamped = min(level, 127)
        if clamped == 127 { return 0 }
        var amplitude = 1.0
        // 10^(-level/20) without Foundation: repeated multiplication by 10^(-1/20).
        for _ in 0..<Int(clamped) { amplitude *= 0.891_250_938_133_745_5 }
        return Int((255 * amplitude).rounded())
    }
}
