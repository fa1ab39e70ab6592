/// Hand-made DTLS 1.2 handshake records, for feeding an endpoint what another
/// implementation would send.
enum DTLSRecordBuilder {
    /// Record content type of handshake messages.
    static let handshakeContentType: UInt8 = 22
    /// Record content type of alerts.
    static let alertContentType: UInt8 = 21
    /// The record header length.
    static let recordHeaderLength = 13
    /// The handshake message header length in DTLS.
    static let handshakeHeaderLength = 12

    /// Suites a browser offers: TLS 1.3 ones first, then ECDHE-ECDSA and ECDHE-RSA.
    static let browserCipherSuites: [UInt16] = [
        0x1301, 0x1302, 0x1303, 0xC02B, 0xC02F, 0xCCA9, 0xCCA8, 0xC009, 0xC013, 0xC00A, 0xC014,
    ]
    /// X25519MLKEM768, the post-quantum hybrid whose key share makes browser hellos large.
    static let hybridGroup: UInt16 = 0x11EC
    /// Length of an X25519MLKEM768 client key share.
    static let hybridShareLength = 1216

    /// A ClientHello body like a current browser's: offers DTLS 1.3 and 1.2 through
    /// supported_versions, with a hybrid post-quantum key share that makes it about 1.4 KB.
    static func browserClientHello(
        cipherSuites: [UInt16] = browserCipherSuites,
        srtpProfiles: [UInt16] = [0x0007, 0x0001]
    ) -> [UInt8] {
        var body: [UInt8] = [0xFE, 0xFD]  // legacy_version: DTLS 1.2
        body += (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }  // random
        body += [0]  // session_id
        body += [0]  // cookie
        body += bigEndian(cipherSuites.count * 2, count: 2)
        for suite in cipherSuites {
            body += bigEndian(Int(suite), count: 2)
        }
        body += [1, 0]  // compression: null

        var extensions: [UInt8] = []
        extensions += `extension`(0xFF01, [0])  // renegotiation_info, empty
        extensions += `extension`(0x0017, [])  // extended_master_secret
        extensions += `extension`(0x000A, list16([hybridGroup, 0x001D, 0x0017, 0x0018]))
        extensions += `extension`(0x000B, [1, 0])  // ec_point_formats: uncompressed
        extensions += `extension`(0x000D, list16([0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601]))
        extensions += `extension`(0x000E, list16(srtpProfiles) + [0])  // use_srtp, no MKI
        extensions += `extension`(0x002B, [4, 0xFE, 0xFC, 0xFE, 0xFD])  // supported_versions: 1.3, 1.2
        var shares: [UInt8] = []
        shares += bigEndian(Int(hybridGroup), count: 2) + bigEndian(hybridShareLength, count: 2)
        shares += (0..<hybridShareLength).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        shares += bigEndian(0x001D, count: 2) + bigEndian(32, count: 2)
        shares += (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 5 &+ 9) }
        extensions += `extension`(0x0033, bigEndian(shares.count, count: 2) + shares)  // key_share
        body += bigEndian(extensions.count, count: 2) + extensions
        return body
    }

    /// One handshake record per fragment of the message: `type` with `body`, cut into
    /// fragments of at most `fragmentLength` bytes, at epoch 0 from record number
    /// `firstSequenceNumber` on.
    static func handshakeRecords(
        type: UInt8, messageSequence: Int = 0, body: [UInt8], fragmentLength: Int,
        firstSequenceNumber: Int = 0
    ) -> [[UInt8]] {
        var records: [[UInt8]] = []
        var offset = 0
        repeat {
            let length = min(fragmentLength, body.count - offset)
            var fragment: [UInt8] = [type]
            fragment += bigEndian(body.count, count: 3)
            fragment += bigEndian(messageSequence, count: 2)
            fragment += bigEndian(offset, count: 3)
            fragment += bigEndian(length, count: 3)
            fragment += body[offset..<offset + length]
            records.append(
                record(
                    contentType: handshakeContentType, sequenceNumber: firstSequenceNumber + records.count,
                    fragment: fragment))
            offset += length
        } while offset < body.count
        return records
    }

    /// A plaintext record at epoch 0 with version DTLS 1.0 (what first flights carry).
    static func record(contentType: UInt8, sequenceNumber: Int, fragment: [UInt8]) -> [UInt8] {
        [contentType, 0xFE, 0xFF, 0, 0] + bigEndian(sequenceNumber, count: 6)
            + bigEndian(fragment.count, count: 2) + fragment
    }

    /// The records of a datagram, as (content type, version, epoch, fragment).
    static func records(in datagram: [UInt8]) -> [(contentType: UInt8, version: UInt16, epoch: UInt16, fragment: [UInt8])] {
        var records: [(UInt8, UInt16, UInt16, [UInt8])] = []
        var offset = 0
        while offset + recordHeaderLength <= datagram.count {
            let length = Int(datagram[offset + 11]) << 8 | Int(datagram[offset + 12])
            let end = offset + recordHeaderLength + length
            guard end <= datagram.count else { break }
            records.append(
                (
                    datagram[offset],
                    UInt16(datagram[offset + 1]) << 8 | UInt16(datagram[offset + 2]),
                    UInt16(datagram[offset + 3]) << 8 | UInt16(datagram[offset + 4]),
                    Array(datagram[(offset + recordHeaderLength)..<end])
                ))
            offset = end
        }
        return records
    }

    /// An extension: type, 2-byte length, data.
    static func `extension`(_ type: UInt16, _ data: [UInt8]) -> [UInt8] {
        bigEndian(Int(type), count: 2) + bigEndian(data.count, count: 2) + data
    }

    /// A list of 16-bit values behind a 2-byte byte count.
    static func list16(_ values: [UInt16]) -> [UInt8] {
        var bytes = bigEndian(values.count * 2, count: 2)
        for value in values {
            bytes += bigEndian(Int(value), count: 2)
        }
        return bytes
    }

    /// `value` as `count` big-endian bytes.
    static func bigEndian(_ value: Int, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * (count - 1 - $0))) }
    }
}
