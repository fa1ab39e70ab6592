/// The RFC 5769 section 2.1 sample request, typed in as the RFC prints it, for the tests
/// that run it through the real HMAC-SHA-1.
enum ICEVectors {
    /// A Binding request with SOFTWARE, PRIORITY, ICE-CONTROLLED, USERNAME "evtj:h6vY",
    /// MESSAGE-INTEGRITY under "VOkJxbRl1RmTxUk/WvJxBt", and FINGERPRINT.
    static let sampleRequest = bytes(hex: """
        00 01 00 58
        21 12 a4 42
        b7 e7 a7 01
        bc 34 d6 86
        fa 87 df ae
        80 22 00 10
        53 54 55 4e
        20 74 65 73
        74 20 63 6c
        69 65 6e 74
        00 24 00 04
        6e 00 01 ff
        80 29 00 08
        93 2f f9 b1
        51 26 3b 36
        00 06 00 09
        65 76 74 6a
        3a 68 36 76
        59 20 20 20
        00 08 00 14
        9a ea a7 0c
        bf d8 cb 56
        78 1e f2 b5
        b2 d3 f2 49
        c1 b5 71 a2
        80 28 00 04
        e5 7a 3b cf
        """)

    /// Bytes from hexadecimal digits; whitespace between them is ignored.
    static func bytes(hex: String) -> [UInt8] {
        precondition(hex.allSatisfy { $0.isHexDigit || $0.isWhitespace }, "not hex")
        let digits = hex.compactMap(\.hexDigitValue)
        precondition(digits.count % 2 == 0, "odd number of hex digits")
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(digits[$0] << 4 | digits[$0 + 1]) }
    }
}
