import ICE
import RTPWire
import STUNTestVectors
import SecureTransport
import Testing

@Suite("Controlling-side checks")
struct ICEConnectivityCheckTests {
    typealias H = ICEHarness

    @Test("the request carries what a controlling agent must send, signed with the peer's password")
    func requestContents() throws {
        let check = H.check(42, useCandidate: true)
        let bytes = check.request()
        let message = try #require(H.parse(bytes))
        #expect(message.type == .bindingRequest)
        #expect(message.transactionID == check.transactionID)
        #expect(message.fingerprint != nil)
        bytes.withUnsafeBytes { packet in
            #expect(message.username(in: packet).map { Array($0) } == Array("RlyA:PeerUfrag1".utf8))
            #expect(message.priority(in: packet) == check.priority)
            #expect(message.iceControlling(in: packet) == H.tieBreaker)
            #expect(message.iceControlled(in: packet) == nil)
            #expect(message.hasUseCandidate(in: packet))
            var scratch = [UInt8](repeating: 0, count: packet.count)
            let verifies = scratch.withUnsafeMutableBytes { scratch in
                Array(H.relay.password.utf8).withUnsafeBytes {
                    STUNMessageIntegrity.isValid(message, in: packet, key: $0, scratch: scratch)
                }
            }
            #expect(verifies)
        }
        let plain = try #require(H.parse(H.check(42).request()))
        #expect(H.check(42).request().withUnsafeBytes { plain.hasUseCandidate(in: $0) } == false)
    }

    @Test("a buffer too small for the request gives nil")
    func requestTooLarge() {
        var buffer = [UInt8](repeating: 0, count: 80)
        #expect(buffer.withUnsafeMutableBytes { H.check(1).writeRequest(into: $0) } == nil)
    }

    @Test("answers are refused when they are not for this check or not from the peer")
    func responseValidation() throws {
        var agent = H.agent()
        let check = H.check(5)
        let (_, response) = H.deliver(check.request(), to: &agent, from: H.wifi, at: 0)
        #expect(check.readResponse(response) == .success(mappedAddress: H.wifi))

        #expect(H.check(6).readResponse(response) == .rejected(.transactionMismatch))

        var impostor = check
        impostor.remoteCredentials.password = "notthepassword0123456789"
        #expect(impostor.readResponse(response) == .rejected(.integrityMismatch))

        var tampered = response
        tampered[tampered.count - 20] ^= 0x01  // inside the MESSAGE-INTEGRITY value
        refreshFingerprint(&tampered)
        #expect(check.readResponse(tampered) == .rejected(.integrityMismatch))

        var broken = response
        broken[broken.count - 1] ^= 0x01
        #expect(check.readResponse(broken) == .rejected(.malformed(.fingerprintMismatch)))

        #expect(check.readResponse(check.request()) == .rejected(.notABindingResponse))
    }

    @Test("a success without integrity or without a mapped address is refused")
    func incompleteSuccess() {
        let check = H.check(8)
        let unsigned = H.request(
            type: .bindingSuccessResponse, transactionID: check.transactionID, username: nil, signWith: nil)
        #expect(check.readResponse(unsigned) == .rejected(.missingIntegrity))
        let unmapped = H.request(
            type: .bindingSuccessResponse, transactionID: check.transactionID, username: nil, signWith: H.relay.password)
        #expect(check.readResponse(unmapped) == .rejected(.missingMappedAddress))
        let noCode = H.request(
            type: .bindingErrorResponse, transactionID: check.transactionID, username: nil, signWith: nil)
        #expect(check.readResponse(noCode) == .rejected(.missingErrorCode))
    }

    @Test("the RFC 5769 sample request's integrity verifies through the real HMAC-SHA-1")
    func rfc5769Integrity() throws {
        let bytes = STUNTestVectors.sampleRequest
        let message = try #require(H.parse(bytes))
        func verifies(_ password: String) -> Bool {
            bytes.withUnsafeBytes { packet in
                var scratch = [UInt8](repeating: 0, count: packet.count)
                return scratch.withUnsafeMutableBytes { scratch in
                    Array(password.utf8).withUnsafeBytes {
                        STUNMessageIntegrity.isValid(message, in: packet, key: $0, scratch: scratch)
                    }
                }
            }
        }
        #expect(verifies("VOkJxbRl1RmTxUk/WvJxBt"))
        #expect(!verifies("VOkJxbRl1RmTxUk/WvJxBu"))
    }

    @Test("secure random transaction IDs differ")
    func randomTransactionIDs() {
        let ids = Set((0..<64).map { _ in STUNTransactionID.secureRandom() })
        #expect(ids.count == 64)
    }

    /// Rewrites the FINGERPRINT at the end of `bytes` so only the intended change remains.
    private func refreshFingerprint(_ bytes: inout [UInt8]) {
        let value = bytes.withUnsafeBytes { STUNFingerprint.value(over: $0, length: $0.count - 8) }
        for index in 0..<4 {
            bytes[bytes.count - 4 + index] = UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * index))
        }
    }
}
