import Auth
import Foundation
import Synchronization

/// A fuzzer's input read as a control-channel script: one step per line.
///
/// The first character of a line says what it is:
/// - `a`, `b`, `c`: the rest is a text frame from session 0, 1 or 2;
/// - `A`, `B`, `C`: that session's connection closes and a new one takes its place;
/// - `!` then `a`, `b` or `c`: a binary frame from that session;
/// - `t` then digits: that many milliseconds pass (1,000 without digits, at most an hour);
/// - `*`: an admin call (see ``ControlFuzzStep/admin(words:)``);
/// - `~`: the relay drains;
/// - anything else: the whole line is a text frame from session 0.
///
/// In text frames, `$token(ROOM,USER)` becomes a token for that room and user signed with the
/// development key and valid for an hour from the script's start, so that joins succeed and
/// deeper states are reached. At most ``maximumSteps`` steps are read.
struct ControlFuzzScript: Sendable {
    static let maximumSteps = 64
    static let sessionCount = 3

    private(set) var steps: [ControlFuzzStep] = []

    init(_ bytes: UnsafeRawBufferPointer, startMs: Int64 = ControlFuzzRelay.startMs) {
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).prefix(Self.maximumSteps) {
            steps.append(Self.step(line, startMs: startMs))
        }
    }

    private static func step(_ line: Substring, startMs: Int64) -> ControlFuzzStep {
        let rest = line.dropFirst()
        switch line.first {
        case "a", "b", "c":
            let session = Int(line.utf8.first! - UInt8(ascii: "a"))
            return .send(session: session, text: expandingTokens(String(rest), startMs: startMs))
        case "A", "B", "C":
            return .reconnect(session: Int(line.utf8.first! - UInt8(ascii: "A")))
        case "!":
            let letter = rest.utf8.first ?? UInt8(ascii: "a")
            let session = (UInt8(ascii: "a")...UInt8(ascii: "c")).contains(letter) ? Int(letter - UInt8(ascii: "a")) : Int(letter) % sessionCount
            return .sendBinary(session: session)
        case "t":
            let milliseconds = Int64(rest.prefix(10).filter(\.isASCII).filter(\.isNumber)) ?? 1_000
            return .advance(milliseconds: min(milliseconds, 3_600_000))
        case "*":
            return .admin(words: rest.split(separator: " ").prefix(3).map(String.init))
        case "~":
            return .drain
        default:
            return .send(session: 0, text: expandingTokens(String(line), startMs: startMs))
        }
    }

    /// Replaces `$token(ROOM,USER)` with a valid token (at most eight per frame).
    static func expandingTokens(_ text: String, startMs: Int64) -> String {
        guard text.contains("$token(") else { return text }
        var result = ""
        var remaining = Substring(text)
        var expanded = 0
        while expanded < 8, let start = remaining.range(of: "$token("), let end = remaining[start.upperBound...].firstIndex(of: ")") {
            let arguments = remaining[start.upperBound..<end].split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            result += remaining[..<start.lowerBound]
            let room = arguments.first.map(String.init) ?? ""
            let user = arguments.count > 1 ? String(arguments[1]) : ""
            result += token(room: room, user: user, startMs: startMs)
            remaining = remaining[remaining.index(after: end)...]
            expanded += 1
        }
        return result + remaining
    }

    /// Tokens minted so far, by room, user and start: scripts name the same few pairs over and
    /// over, and signing each again would cost more than many whole steps.
    private static let mintedTokens = Mutex<[String: String]>([:])

    private static func token(room: String, user: String, startMs: Int64) -> String {
        let key = "\(startMs)\u{0}\(room)\u{0}\(user)"
        if let token = mintedTokens.withLock({ $0[key] }) { return token }
        let claims = TokenClaims(sub: user, room: room, exp: startMs / 1000 + 3_600, iat: startMs / 1000)
        let token = TokenMinter(key: SigningKey.development).mint(claims)
        mintedTokens.withLock { tokens in
            if tokens.count >= 4_096 { tokens.removeAll(keepingCapacity: true) }
            tokens[key] = token
        }
        return token
    }
}
