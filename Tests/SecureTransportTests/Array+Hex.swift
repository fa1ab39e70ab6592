extension Array where Element == UInt8 {
    /// Bytes from hexadecimal digits; spaces and line breaks between digits are ignored,
    /// so vectors can be written as they appear in RFCs.
    init(hex: String) {
        let digits = hex.filter { !$0.isWhitespace }
        precondition(digits.count % 2 == 0, "odd number of hex digits")
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else {
                preconditionFailure("not a hex digit in \(digits[index..<next])")
            }
            bytes.append(byte)
            index = next
        }
        self = bytes
    }

    /// Lower-case hexadecimal, for readable failure messages.
    var hex: String {
        map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
