/// An `a=fingerprint` attribute (RFC 8122): the hash of the certificate the writer will
/// present in the DTLS handshake.
public struct SDPFingerprint: Sendable, Hashable {
    /// The hash function, lowercased: `sha-256`, `sha-384`, `sha-512`, ...
    public var algorithm: String
    /// The hash as colon-separated hexadecimal byte pairs, as written.
    public var value: String

    /// Creates a fingerprint; the algorithm name is lowercased.
    public init(algorithm: String, value: String) {
        self.algorithm = algorithm.lowercased()
        self.value = value
    }

    /// Creates a fingerprint from hash bytes, written as uppercase hexadecimal pairs.
    public init(algorithm: String, bytes: [UInt8]) {
        let digits = Array("0123456789ABCDEF")
        self.init(
            algorithm: algorithm,
            value: bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]]) }.joined(separator: ":"))
    }

    /// The hash bytes, or nil when `value` is not colon-separated hexadecimal pairs.
    public var bytes: [UInt8]? {
        var result: [UInt8] = []
        for pair in SDPText.split(Substring(value), at: ":", omittingEmptySubsequences: false) {
            guard pair.utf8.count == 2, pair.allSatisfy(\.isHexDigit), let byte = UInt8(pair, radix: 16) else { return nil }
            result.append(byte)
        }
        return result
    }

    /// The hash length in bytes the algorithm produces, or nil for an algorithm this type
    /// does not know.
    public var expectedByteCount: Int? {
        switch algorithm {
        case "sha-1": 20
        case "sha-224": 28
        case "sha-256": 32
        case "sha-384": 48
        case "sha-512": 64
        case "md5", "md2": 16
        default: nil
        }
    }

    /// Whether both fingerprints name the same algorithm and the same bytes, whatever the
    /// case of the hexadecimal digits.
    public func matches(_ other: SDPFingerprint) -> Bool {
        algorithm == other.algorithm && bytes != nil && bytes == other.bytes
    }

    static let expectedForm = "'<hash function> <hex pairs separated by colons>', such as 'sha-256 AB:CD:...', with as many bytes as the hash function gives"

    /// Parses the value of an `a=fingerprint` attribute; nil when it is not two fields, the
    /// second is not hexadecimal pairs, or a known algorithm has the wrong number of bytes.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard fields.count == 2, SDPText.isToken(fields[0]) else { return nil }
        self.init(algorithm: String(fields[0]), value: String(fields[1]))
        guard let bytes, !bytes.isEmpty else { return nil }
        if let expected = expectedByteCount, expected != bytes.count { return nil }
    }

    /// The value written after `a=fingerprint:`.
    var sdpValue: String { "\(algorithm) \(value)" }
}
