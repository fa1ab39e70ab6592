import Foundation
import SecureTransport
import Testing

/// The generated certificates, checked by reading their DER encoding.
@Suite("DTLS certificates")
struct DTLSCertificateTests {
    /// A DER element: tag, contents, and where the element ends.
    struct Element {
        var tag: UInt8
        var contents: ArraySlice<UInt8>
        var end: Int
    }

    /// Reads the DER element at `offset` (definite lengths up to four length bytes).
    static func element(in bytes: [UInt8], at offset: Int) -> Element? {
        guard offset + 2 <= bytes.count else { return nil }
        var cursor = offset + 1
        var length = Int(bytes[cursor])
        cursor += 1
        if length & 0x80 != 0 {
            let lengthBytes = length & 0x7F
            guard (1...4).contains(lengthBytes), cursor + lengthBytes <= bytes.count else { return nil }
            length = bytes[cursor..<cursor + lengthBytes].reduce(0) { $0 << 8 | Int($1) }
            cursor += lengthBytes
        }
        guard cursor + length <= bytes.count else { return nil }
        return Element(tag: bytes[offset], contents: bytes[cursor..<cursor + length], end: cursor + length)
    }

    /// The elements directly inside a constructed element.
    static func children(of parent: Element, in bytes: [UInt8]) -> [Element] {
        var children: [Element] = []
        var offset = parent.contents.startIndex
        while offset < parent.end, let child = element(in: bytes, at: offset) {
            children.append(child)
            offset = child.end
        }
        return children
    }

    /// Seconds since 1970 of an X.509 UTCTime such as `260101120000Z`.
    static func secondsSince1970(utcTime: ArraySlice<UInt8>) -> Int? {
        let digits = Array(utcTime.prefix(12)).map { Int($0) - 48 }
        guard utcTime.count == 13, utcTime.last == UInt8(ascii: "Z"), digits.allSatisfy({ (0...9).contains($0) }) else {
            return nil
        }
        let field = { (index: Int) in digits[index] * 10 + digits[index + 1] }
        var components = DateComponents()
        components.year = 2000 + field(0)
        components.month = field(2)
        components.day = field(4)
        components.hour = field(6)
        components.minute = field(8)
        components.second = field(10)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: components).map { Int($0.timeIntervalSince1970) }
    }

    /// The tbsCertificate fields of `certificate`: version, serial, signature algorithm,
    /// issuer, validity, subject, public key.
    static func fields(of certificate: DTLSCertificate) throws -> (bytes: [UInt8], fields: [Element]) {
        let der = certificate.derEncoded
        let outer = try #require(element(in: der, at: 0))
        #expect(outer.tag == 0x30)
        #expect(outer.end == der.count)
        let parts = children(of: outer, in: der)
        #expect(parts.count == 3)  // tbsCertificate, signatureAlgorithm, signature
        let tbs = try #require(parts.first)
        return (der, children(of: tbs, in: der))
    }

    @Test("The certificate is a v3 ECDSA P-256 certificate signed with SHA-256")
    func structure() throws {
        let (der, fields) = try Self.fields(of: DTLSCertificate())
        #expect(fields.count >= 7)
        #expect(Array(fields[0].contents) == [0x02, 0x01, 0x02])  // [0] { INTEGER 2 }: v3
        let ecdsaWithSHA256: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]
        let prime256v1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        #expect(Array(fields[2].contents) == [0x06, 0x08] + ecdsaWithSHA256)
        #expect(der[fields[6].contents.startIndex..<fields[6].end].containsSequence(prime256v1))
    }

    @Test("Subject and issuer are the short common name")
    func names() throws {
        let (_, fields) = try Self.fields(of: DTLSCertificate())
        let issuer = Array(fields[3].contents)
        let subject = Array(fields[5].contents)
        #expect(issuer == subject)
        #expect(subject.containsSequence(Array("pkrelay".utf8)))
        let (_, custom) = try Self.fields(of: DTLSCertificate(commonName: "edge-7"))
        #expect(Array(custom[5].contents).containsSequence(Array("edge-7".utf8)))
    }

    @Test("The certificate is valid from a day ago to thirty days on")
    func validity() throws {
        let now = Int(Date().timeIntervalSince1970)
        let (der, fields) = try Self.fields(of: DTLSCertificate())
        let times = Self.children(of: fields[4], in: der)
        #expect(times.map(\.tag) == [0x17, 0x17])  // UTCTime
        let notBefore = try #require(Self.secondsSince1970(utcTime: times[0].contents))
        let notAfter = try #require(Self.secondsSince1970(utcTime: times[1].contents))
        #expect(abs(notBefore - (now - 86_400)) <= 60)
        #expect(abs(notAfter - (now + 30 * 86_400)) <= 60)
    }

    @Test("Serial numbers are random, positive and 16 bytes long")
    func serials() throws {
        var serials: Set<[UInt8]> = []
        for _ in 0..<8 {
            let (_, fields) = try Self.fields(of: DTLSCertificate())
            #expect(fields[1].tag == 0x02)
            let serial = Array(fields[1].contents)
            #expect(serial.count == 16)
            #expect(serial[0] & 0x80 == 0)
            serials.insert(serial)
        }
        #expect(serials.count == 8)
    }

    @Test("The fingerprint is the SHA-256 of the DER encoding, in SDP form; each certificate is new")
    func fingerprints() throws {
        let first = try DTLSCertificate()
        let second = try DTLSCertificate()
        #expect(first.fingerprint == DTLSFingerprint(algorithm: .sha256, certificateDER: first.derEncoded))
        #expect(first.fingerprint(using: .sha256) == first.fingerprint)
        #expect(first.fingerprint(using: .sha384).digest.count == 48)
        #expect(first.fingerprint(using: .sha512).digest.count == 64)
        #expect(first.derEncoded != second.derEncoded)
        #expect(first.fingerprint != second.fingerprint)
        let text = first.fingerprint.sdpValue
        #expect(text.hasPrefix("sha-256 "))
        let pairs = text.dropFirst(8).split(separator: ":")
        #expect(pairs.count == 32)
        #expect(pairs.allSatisfy { $0.count == 2 && $0.allSatisfy { "0123456789ABCDEF".contains($0) } })
    }
}

extension Collection where Element == UInt8 {
    /// Whether `needle` occurs somewhere in this collection.
    fileprivate func containsSequence(_ needle: [UInt8]) -> Bool {
        let bytes = Array(self)
        guard needle.count <= bytes.count else { return false }
        return (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<$0 + needle.count]) == needle }
    }
}
