import Foundation

extension AdminHTTPClient {
    /// The body of a `Transfer-Encoding: chunked` response, joined.
    static func dechunk(_ body: String) -> String {
        var output = ""
        var rest = Substring(body)
        while let lineEnd = rest.range(of: "\r\n") {
            guard let size = Int(rest[..<lineEnd.lowerBound], radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            let utf8 = rest.utf8
            guard let end = utf8.index(start, offsetBy: size, limitedBy: utf8.endIndex) else { break }
            output += String(rest[start..<end])
            rest = rest[end...].dropFirst(2)
        }
        return output
    }
}
