import Foundation

/// Base64url without padding (RFC 4648 section 5), as JWTs use.
///
/// The alphabet is translated byte by byte to and from standard Base64 around Foundation's codec:
/// tokens are verified on every join, and string replacement cost more than the decoding.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        var encoded = Array(Data(bytes).base64EncodedData())
        while encoded.last == UInt8(ascii: "=") { encoded.removeLast() }
        for index in encoded.indices {
            switch encoded[index] {
            case UInt8(ascii: "+"): encoded[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): encoded[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        var standard: [UInt8] = []
        standard.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): standard.append(byte)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        switch standard.count % 4 {
        case 0: break
        case 2: standard.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "=")])
        case 3: standard.append(UInt8(ascii: "="))
        default: return nil
        }
        return Data(base64Encoded: Data(standard)).map { Array($0) }
    }
}
