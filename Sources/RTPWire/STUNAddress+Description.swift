extension STUNAddress: CustomStringConvertible {
    /// "192.0.2.1:32853" or "[2001:db8::1]:443", IPv6 in the RFC 5952 canonical form.
    public var description: String {
        switch family {
        case .ipv4:
            let ip = UInt32(truncatingIfNeeded: low)
            return "\(ip >> 24).\((ip >> 16) & 0xFF).\((ip >> 8) & 0xFF).\(ip & 0xFF):\(port)"
        case .ipv6:
            return "[\(ipv6Text)]:\(port)"
        }
    }

    /// The eight 16-bit groups in lower-case hex, with the longest run of two or more zero
    /// groups (the first, on a tie) written as "::".
    private var ipv6Text: String {
        let groups: [UInt16] = (0..<8).map { index in
            let half = index < 4 ? high : low
            return UInt16(truncatingIfNeeded: half >> UInt64(48 - 16 * (index % 4)))
        }
        var bestStart = -1
        var bestLength = 0
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < 8, groups[index] == 0 { index += 1 }
            if index - start > bestLength {
                bestStart = start
                bestLength = index - start
            }
        }
        let hex = groups.map { String($0, radix: 16) }
        guard bestLength >= 2 else { return hex.joined(separator: ":") }
        let head = hex[0..<bestStart].joined(separator: ":")
        let tail = hex[(bestStart + bestLength)...].joined(separator: ":")
        return head + "::" + tail
    }
}
