import Foundation
import Testing

@testable import PKRelayServer

/// Webhook bodies are written without Foundation: the bytes must be JSON any receiver reads back
/// to the same values, with keys sorted so the same event always signs the same.
@Suite("Webhook bodies")
struct WebhookBodyTests {
    @Test("a body's bytes: keys sorted at both levels, slashes not escaped")
    func exactBytes() {
        let body = WebhookBody.encode(
            id: "e1", type: "user.left", timestampMs: 1_700_000_000_123, sequence: 42, roomId: "r/1",
            data: ["userId": .string("u1"), "roomId": .string("r/1"), "visible": .bool(false), "error": .number(Int32(-7))])
        let expected =
            #"{"data":{"error":-7,"roomId":"r/1","userId":"u1","visible":false},"id":"e1","roomId":"r/1","sequence":42,"#
            + #""timestamp":1700000000123,"type":"user.left"}"#
        #expect(String(decoding: body, as: UTF8.self) == expected)
    }

    @Test("strings with quotes, backslashes, every control character and non-ASCII text read back unchanged")
    func stringsRoundTrip() throws {
        let controls = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        let texts = ["plain", #"say "hi""#, #"back\slash"#, controls, "line\nbreak\ttab", "日本語 ü 🎉", "\u{7F}\u{2028}", ""]
        for text in texts {
            let body = WebhookBody.encode(
                id: text, type: "t", timestampMs: 0, sequence: UInt64.max, roomId: text, data: [text: .string(text), "n": .integer(Int64.min)])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], "\(text.debugDescription)")
            #expect(object["id"] as? String == text)
            #expect(object["roomId"] as? String == text)
            #expect(object["sequence"] as? Int64 == Int64.max, "sequence saturates")
            let data = try #require(object["data"] as? [String: Any])
            #expect(data[text] as? String == text, "\(text.debugDescription)")
            #expect(data["n"] as? Int64 == Int64.min)
        }
    }

    @Test("numbers of any width saturate to what JSON readers hold exactly")
    func numbers() {
        #expect(WebhookValue.number(UInt64.max) == .integer(Int64.max))
        #expect(WebhookValue.number(UInt8(200)) == .integer(200))
        #expect(WebhookValue.number(-3) == .integer(-3))
    }
}
