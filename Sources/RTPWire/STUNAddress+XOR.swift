extension STUNAddress {
    /// Decodes an XOR-MAPPED-ADDRESS value (RFC 8489 section 14.2): the port is XORed with
    /// the top half of the magic cookie, an IPv4 address with the cookie, an IPv6 address
    /// with the cookie followed by the transaction ID.
    ///
    /// Returns nil when the family is unknown or the length does not match it.
    public init?(xorValue value: UnsafeRawBufferPointer, transactionID: STUNTransactionID) {
        guard value.count >= 4, value.baseAddress != nil,
            let family = STUNAddressFamily(rawValue: value[1]),
            value.count == 4 + family.addressLength
        else { return nil }
        let port = value.readUInt16(at: 2) ^ UInt16(truncatingIfNeeded: STUNMessageHeader.magicCookie >> 16)
        switch family {
        case .ipv4:
            self.init(ipv4: value.readUInt32(at: 4) ^ STUNMessageHeader.magicCookie, port: port)
        case .ipv6:
            let mask = Self.ipv6Mask(transactionID)
            self.init(ipv6High: value.readUInt64(at: 4) ^ mask.high, low: value.readUInt64(at: 12) ^ mask.low, port: port)
        }
    }

    /// Bytes the XOR-MAPPED-ADDRESS value of this address takes: 8 for IPv4, 20 for IPv6.
    public var xorValueLength: Int { 4 + family.addressLength }

    /// Writes the XOR-MAPPED-ADDRESS value of this address at `offset` in `buffer`; the
    /// caller has checked that `xorValueLength` bytes fit.
    func writeXORValue(into buffer: UnsafeMutableRawBufferPointer, at offset: Int, transactionID: STUNTransactionID) {
        buffer[offset] = 0
        buffer[offset + 1] = family.rawValue
        buffer.writeUInt16(port ^ UInt16(truncatingIfNeeded: STUNMessageHeader.magicCookie >> 16), at: offset + 2)
        switch family {
        case .ipv4:
            buffer.writeUInt32(UInt32(truncatingIfNeeded: low) ^ STUNMessageHeader.magicCookie, at: offset + 4)
        case .ipv6:
            let mask = Self.ipv6Mask(transactionID)
            buffer.writeUInt64(high ^ mask.high, at: offset + 4)
            buffer.writeUInt64(low ^ mask.low, at: offset + 12)
        }
    }

    /// The 128 bits an IPv6 address is XORed with: the magic cookie, then the transaction ID.
    private static func ipv6Mask(_ transactionID: STUNTransactionID) -> (high: UInt64, low: UInt64) {
        (UInt64(STUNMessageHeader.magicCookie) << 32 | UInt64(transactionID.high), transactionID.low)
    }
}
