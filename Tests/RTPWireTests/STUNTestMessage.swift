import RTPWire
import STUNTestVectors

/// Builds STUN messages byte by byte for tests, including ones the writer refuses to make
/// (attributes in the wrong order, wrong lengths), so each test shows the layout it uses.
enum STUNTestMessage {
    /// A message of `type` with `attributes` in order, each padded with zeros, the length
    /// field set to match and, when `fingerprint` is true, a correct FINGERPRINT appended.
    static func build(
        type: UInt16 = 0x0001,
        transactionID: [UInt8] = STUNTestVectors.transactionID,
        attributes: [(type: UInt16, value: [UInt8])],
        fingerprint: Bool = false
    ) -> [UInt8] {
        var body: [UInt8] = []
        for attribute in attributes {
            append16(attribute.type, to: &body)
            append16(UInt16(attribute.value.count), to: &body)
            body += attribute.value
            while body.count % 4 != 0 { body.append(0) }
        }
        var bytes: [UInt8] = []
        append16(type, to: &bytes)
        append16(UInt16(body.count + (fingerprint ? 8 : 0)), to: &bytes)
        bytes += [0x21, 0x12, 0xA4, 0x42] + transactionID + body
        if fingerprint {
            let crc = bytes.withUnsafeBytes { STUNFingerprint.value(over: $0, length: $0.count) }
            append16(0x8028, to: &bytes)
            append16(4, to: &bytes)
            append16(UInt16(crc >> 16), to: &bytes)
            append16(UInt16(crc & 0xFFFF), to: &bytes)
        }
        return bytes
    }

    /// Replaces the FINGERPRINT at the end of `bytes` with the right value for the rest.
    static func refreshFingerprint(_ bytes: inout [UInt8]) {
        let crc = bytes.withUnsafeBytes { STUNFingerprint.value(over: $0, length: $0.count - 8) }
        let end = bytes.count
        bytes[end - 4] = UInt8(crc >> 24)
        bytes[end - 3] = UInt8((crc >> 16) & 0xFF)
        bytes[end - 2] = UInt8((crc >> 8) & 0xFF)
        bytes[end - 1] = UInt8(crc & 0xFF)
    }

    /// Parses `bytes`, turning the typed error into a value tests can compare.
    static func parse(_ bytes: [UInt8]) -> Result<STUNMessage, STUNParseError> {
        bytes.withUnsafeBytes { packet in
            do throws(STUNParseError) {
                return .success(try STUNMessage(parsing: packet))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Whether the MESSAGE-INTEGRITY of `bytes` verifies under `password`, computed with the
    /// test HMAC over the input `integrityInput(from:into:)` prepares.
    static func integrityVerifies(_ bytes: [UInt8], password: String) -> Bool {
        guard case .success(let message) = parse(bytes) else { return false }
        return bytes.withUnsafeBytes { packet in
            var scratch = [UInt8](repeating: 0, count: packet.count)
            guard let signedLength = scratch.withUnsafeMutableBytes({ message.integrityInput(from: packet, into: $0) }),
                let code = message.integrityValue(in: packet)
            else { return false }
            let expected = STUNTestHMACSHA1.code(key: Array(password.utf8), message: Array(scratch.prefix(signedLength)))
            return expected == Array(code)
        }
    }

    /// Appends `value` in network byte order.
    static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }
}
