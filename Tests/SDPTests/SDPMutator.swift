/// Mutates description text the ways hand edits, truncation and hostile clients do: lines
/// dropped, repeated, swapped or replaced with malformed attributes, characters changed,
/// numbers made huge, text cut short.
struct SDPMutator {
    var random: SplitMix

    /// Pieces that exercise the parser's edge cases.
    static let fragments = [
        ":", " ", "/", ";", ",", "~", "=", "*", "\r", "\n", "\t", "\u{0}", "é", "\u{301}", "\r\n", "-", "99999999999999999999999",
        "4294967296", "128", "0", "",
    ]

    /// Attribute and line starts whose values the parser reads closely.
    static let linePrefixes = [
        "a=rtpmap:", "a=fmtp:", "a=rtcp-fb:", "a=extmap:", "a=ssrc:", "a=ssrc-group:", "a=rid:", "a=simulcast:", "a=msid:",
        "a=candidate:", "a=fingerprint:", "a=setup:", "a=mid:", "a=group:", "a=ice-ufrag:", "m=", "o=", "c=", "b=", "t=", "v=",
    ]

    mutating func pick<T>(_ items: [T]) -> T { items[random.below(items.count)] }

    mutating func mutate(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0...random.below(4) {
            guard !lines.isEmpty else { break }
            let index = random.below(lines.count)
            switch random.below(8) {
            case 0: lines.remove(at: index)
            case 1: lines.insert(lines[index], at: random.below(lines.count + 1))
            case 2: lines.swapAt(index, random.below(lines.count))
            case 3: lines[index] = pick(Self.linePrefixes) + randomText()
            case 4: lines[index] = replacingCharacter(in: lines[index])
            case 5:
                lines[index] = lines[index].split(separator: " ", omittingEmptySubsequences: false)
                    .map { $0.allSatisfy(\.isNumber) && !$0.isEmpty ? pick(["99999999999999999999999", "4294967296", "256", "0"]) : String($0) }
                    .joined(separator: " ")
            case 6:
                let kept = random.below(lines[index].count + 1)
                lines[index] = String(lines[index].prefix(kept))
                lines.removeSubrange((index + 1)...)
            default: lines[index] = pick(Self.linePrefixes) + lines[index].dropFirst(2)
            }
        }
        return lines.joined(separator: pick(["\n", "\r\n"]))
    }

    private mutating func randomText() -> String {
        (0..<random.below(6)).map { _ in pick(Self.fragments + ["96", "h", "send", "recv", "sha-256", "AB:CD", "urn:x"]) }.joined()
    }

    private mutating func replacingCharacter(in line: String) -> String {
        guard !line.isEmpty else { return pick(Self.fragments) }
        var characters = Array(line)
        characters[random.below(characters.count)] = Character(pick(Self.fragments.filter { $0.count == 1 }))
        return String(characters)
    }

    /// Text of random bytes, decoded leniently as UTF-8.
    mutating func garbage() -> String {
        let alphabet = Array("v=0o-sta:mcb\r\n 19/;,~*".utf8) + [0xC3, 0xA9, 0xFF, 0x00]
        return String(decoding: (0..<random.below(200)).map { _ in pick(alphabet) }, as: UTF8.self)
    }
}
