import Foundation

/// Base64url without padding (RFC 4648 section 5), for signing fuzzed token claims the way a
/// room server does.
enum FuzzBase64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
