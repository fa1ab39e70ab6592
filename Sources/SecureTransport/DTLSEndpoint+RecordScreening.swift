extension DTLSEndpoint {
    /// The DTLS record header length (RFC 6347 section 4.1).
    static let recordHeaderLength = 13
    /// The shortest protected record: AES-GCM's 8-byte explicit nonce and 16-byte tag around
    /// empty content (RFC 5288). The context offers only AES-GCM suites.
    static let shortestProtectedRecordLength = 24

    /// Drops records that claim a protected epoch but are too short to be protected.
    ///
    /// OpenSSL 3.0 treats such a record as an internal error and tears the association down
    /// with a fatal alert, where DTLS says to drop undecryptable records silently (RFC 6347
    /// section 4.1.2.7). Anyone able to put one short datagram on the path could otherwise end
    /// an established association. Records that are cut short are left for OpenSSL, which drops
    /// them itself.
    ///
    /// - Returns: `datagram` when every record may go through (the usual case, no copy), the
    ///   remaining records when some were dropped, or `nil` when none remain.
    static func screenRecords(_ datagram: [UInt8]) -> [UInt8]? {
        var offset = 0
        var kept: [UInt8]? = nil
        while offset + recordHeaderLength <= datagram.count {
            let epoch = Int(datagram[offset + 3]) << 8 | Int(datagram[offset + 4])
            let length = Int(datagram[offset + 11]) << 8 | Int(datagram[offset + 12])
            let end = min(offset + recordHeaderLength + length, datagram.count)
            if epoch != 0 && length < shortestProtectedRecordLength {
                if kept == nil {
                    kept = Array(datagram[..<offset])
                }
            } else {
                kept?.append(contentsOf: datagram[offset..<end])
            }
            offset = end
        }
        guard var kept else { return datagram }
        kept.append(contentsOf: datagram[offset...])
        return kept.isEmpty ? nil : kept
    }
}
