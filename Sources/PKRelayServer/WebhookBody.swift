/// Writes webhook bodies: one JSON object per event with its keys sorted, so that the same
/// event always has the same bytes (and signature), and `/` left unescaped.
enum WebhookBody {
    /// The body of one event: `data`, `id`, `roomId`, `sequence`, `timestamp` and `type`.
    static func encode(id: String, type: String, timestampMs: Int64, sequence: UInt64, roomId: String, data: [String: WebhookValue]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        out.append(contentsOf: #"{"data":{"#.utf8)
        var first = true
        for key in data.keys.sorted() {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            switch data[key]! {
            case .string(let text): appendString(text, to: &out)
            case .integer(let value): out.append(contentsOf: String(value).utf8)
            case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
            }
        }
        out.append(contentsOf: #"},"id":"#.utf8)
        appendString(id, to: &out)
        out.append(contentsOf: #","roomId":"#.utf8)
        appendString(roomId, to: &out)
        out.append(contentsOf: #","sequence":"#.utf8)
        out.append(contentsOf: String(Int64(clamping: sequence)).utf8)
        out.append(contentsOf: #","timestamp":"#.utf8)
        out.append(contentsOf: String(timestampMs).utf8)
        out.append(contentsOf: #","type":"#.utf8)
        appendString(type, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A JSON string (RFC 8259 §7): quotes, backslashes and control characters escaped, the
    /// rest as UTF-8.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
