/// The text form of an impairment, for the command line and for tests in other languages:
/// space-separated `key=value` settings, e.g. `rate=1M queue=30000 delay=50 jitter=5
/// loss=0.01 burst=0.002/8`.
///
/// | key | value |
/// |---|---|
/// | `rate` | bits per second, with an optional `k`, `M` or `G` suffix; `0` or `off` for no limit |
/// | `bucket` | the token bucket's depth in bytes |
/// | `queue` | the queue limit in bytes, or in milliseconds at the rate with an `ms` suffix; `auto` for the default |
/// | `delay`, `jitter` | milliseconds |
/// | `loss` | the chance of a random loss, 0-1 |
/// | `burst` | `P/L`: the chance per datagram that a loss burst starts, and its mean length in datagrams; `0` for none |
///
/// `reset` (alone or first) starts from no impairment; otherwise unnamed settings keep their values.
extension LinkImpairment {
    /// Applies the settings in `text` to `self`.
    /// - Throws: ``LinkImpairmentTextError`` naming the first setting that cannot be read.
    public mutating func apply(_ text: String) throws(LinkImpairmentTextError) {
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            if word == "reset" {
                self = .none
                continue
            }
            guard let equals = word.firstIndex(of: "=") else { throw LinkImpairmentTextError(setting: String(word)) }
            let key = word[..<equals]
            let value = String(word[word.index(after: equals)...])
            let fail = LinkImpairmentTextError(setting: String(word))
            switch key {
            case "rate":
                guard let rate = Self.bits(value) else { throw fail }
                rateBitsPerSecond = rate
            case "bucket":
                guard let bytes = Int(value), bytes > 0 else { throw fail }
                burstBytes = bytes
            case "queue":
                if value == "auto" {
                    queueBytes = nil
                } else if value.hasSuffix("ms") {
                    guard let ms = Int(value.dropLast(2)), ms >= 0, rateBitsPerSecond > 0 else { throw fail }
                    queueBytes = max(burstBytes, rateBitsPerSecond / 8 * ms / 1000)
                } else {
                    guard let bytes = Int(value), bytes >= 0 else { throw fail }
                    queueBytes = bytes
                }
            case "delay":
                guard let ms = Double(value), ms >= 0, ms.isFinite else { throw fail }
                delayMs = ms
            case "jitter":
                guard let ms = Double(value), ms >= 0, ms.isFinite else { throw fail }
                jitterMs = ms
            case "loss":
                guard let probability = Double(value), (0...1).contains(probability) else { throw fail }
                lossProbability = probability
            case "burst":
                if value == "0" || value == "off" {
                    burstLossProbability = 0
                    continue
                }
                let parts = value.split(separator: "/")
                guard parts.count == 2, let start = Double(parts[0]), (0...1).contains(start), let length = Double(parts[1]), length >= 1, length.isFinite
                else { throw fail }
                burstLossProbability = start
                meanBurstLength = length
            default:
                throw fail
            }
        }
    }

    /// An impairment read from `text`, starting from none.
    public init(parsing text: String) throws(LinkImpairmentTextError) {
        self = .none
        try apply(text)
    }

    /// The settings as text that ``apply(_:)`` reads back.
    public var text: String {
        var words = ["rate=\(rateBitsPerSecond)", "bucket=\(burstBytes)", "queue=\(queueBytes.map(String.init) ?? "auto")"]
        words.append("delay=\(delayMs)")
        words.append("jitter=\(jitterMs)")
        words.append("loss=\(lossProbability)")
        words.append(burstLossProbability == 0 ? "burst=0" : "burst=\(burstLossProbability)/\(meanBurstLength)")
        return words.joined(separator: " ")
    }

    /// Bits per second from `300k`, `1M`, `2.5M`, `1000000`, `off`.
    static func bits(_ text: String) -> Int? {
        if text == "off" { return 0 }
        var digits = Substring(text)
        var scale = 1.0
        switch digits.last {
        case "k", "K": scale = 1e3
        case "M", "m": scale = 1e6
        case "G", "g": scale = 1e9
        default: break
        }
        if scale != 1 { digits = digits.dropLast() }
        guard let value = Double(digits), value >= 0, value.isFinite, value * scale < 1e12 else { return nil }
        return Int(value * scale)
    }
}
