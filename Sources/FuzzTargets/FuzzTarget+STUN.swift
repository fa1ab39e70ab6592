import ICE
import RTPWire

extension FuzzTarget {
    /// The ICE-lite agent's credentials: the ufrag and password of the RFC 5769 samples, so that
    /// the samples in the corpus authenticate.
    static let stunCredentials = ICECredentials(ufrag: "evtj", password: "VOkJxbRl1RmTxUk/WvJxBt")

    /// The first byte picks the mode. Even: the rest is one datagram as it arrives. Odd: the rest
    /// lists attributes (type, length byte, value) that go into a Binding request signed with the
    /// agent's password and fingerprinted, so that inputs get past the integrity check.
    ///
    /// The message is parsed and every attribute read; the agent answers it, and any answer must
    /// be a well-formed response that authenticates and names the sender's address.
    static func runSTUN(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzInput(bytes)
        let mode = input.byte()
        if mode & 1 == 0 {
            checkSTUNMessage(input.rest(), fromIPv6: mode & 2 != 0)
            return
        }
        var request = [UInt8](repeating: 0, count: 1500)
        let length = request.withUnsafeMutableBytes { buffer -> Int? in
            var writer = STUNMessageWriter(
                into: buffer, type: mode & 4 == 0 ? .bindingRequest : STUNMessageType(rawValue: input.uint16()),
                transactionID: STUNTransactionID(high: input.uint32(), low: input.uint64()))
            if mode & 8 == 0 { writer.append(.username, text: "evtj:h6vY") }
            while input.position < input.bytes.count {
                let type = STUNAttributeType(rawValue: input.uint16())
                let value = input.take(Int(input.byte()))
                writer.append(type, value: value)
            }
            if let slot = writer.appendIntegrityPlaceholder() {
                Array(stunCredentials.password.utf8).withUnsafeBytes { key in
                    STUNMessageIntegrity.sign(slot, in: buffer, key: key)
                }
            }
            if mode & 16 == 0 { writer.appendFingerprint() }
            return writer.finish()
        }
        guard let length else { return }
        request.withUnsafeBytes { checkSTUNMessage(UnsafeRawBufferPointer(rebasing: $0[0..<length]), fromIPv6: mode & 2 != 0) }
    }

    private static func checkSTUNMessage(_ packet: UnsafeRawBufferPointer, fromIPv6: Bool) {
        if let message = try? STUNMessage(parsing: packet) {
            var iterator = STUNAttributeIterator(packet)
            var end = STUNMessageHeader.length
            while let attribute = iterator.next() {
                precondition(attribute.headerOffset == end, "attributes skipped")
                precondition(attribute.value(in: packet) != nil, "an attribute outside the message")
                end = attribute.valueOffset + ((attribute.valueLength + 3) & ~3)
            }
            precondition(end == packet.count, "attributes do not fill the message")
            _ = message.username(in: packet)
            _ = message.software(in: packet)
            _ = message.priority(in: packet)
            _ = message.hasUseCandidate(in: packet)
            _ = message.iceControlled(in: packet)
            _ = message.iceControlling(in: packet)
            _ = message.xorMappedAddress(in: packet)?.description
            _ = message.errorCode(in: packet)
            var scratch = [UInt8](repeating: 0, count: packet.count)
            scratch.withUnsafeMutableBytes { scratch in
                Array(stunCredentials.password.utf8).withUnsafeBytes { key in
                    _ = STUNMessageIntegrity.isValid(message, in: packet, key: key, scratch: scratch)
                }
            }
        }

        let source =
            fromIPv6
            ? STUNAddress(ipv6High: 0x2001_0DB8_0000_0000, low: 0x0000_0000_0000_0001, port: 61_000)
            : STUNAddress(ipv4: 0xC000_0201, port: 61_000)
        var agent = ICELiteAgent(localCredentials: stunCredentials, createdAt: 1_000)
        var response = [UInt8](repeating: 0, count: max(1500, packet.count))
        let outcome = response.withUnsafeMutableBytes { agent.handleBindingRequest(packet, from: source, at: 2_000, response: $0) }
        switch outcome {
        case .drop:
            break
        case .respond(let length, _):
            let answer = checkResponse(response, length: length, request: packet)
            precondition(answer.type == .bindingSuccessResponse, "a success that is not a success response")
            response.withUnsafeBytes { raw in
                precondition(answer.xorMappedAddress(in: UnsafeRawBufferPointer(rebasing: raw[0..<length])) == source, "the mapped address is not the sender")
            }
            precondition(agent.selectedAddress == nil || agent.selectedAddress == source, "another address was selected")
        case .respondError(let length, let code):
            let answer = checkResponse(response, length: length, request: packet)
            precondition(answer.type.messageClass == .errorResponse, "an error that is not an error response")
            response.withUnsafeBytes { raw in
                precondition(answer.errorCode(in: UnsafeRawBufferPointer(rebasing: raw[0..<length])) == code, "the answer carries another error code")
            }
        }
        _ = agent.checkConsent(at: 40_000_000_000)
        _ = agent.checkConsent(at: .max)
    }

    /// Parses the agent's answer: FINGERPRINT verifies, the transaction is the request's, and
    /// MESSAGE-INTEGRITY, when present, verifies with the local password.
    private static func checkResponse(_ response: [UInt8], length: Int, request: UnsafeRawBufferPointer) -> STUNMessage {
        response.withUnsafeBytes { raw in
            precondition(length > 0 && length <= raw.count, "an answer longer than its buffer")
            let answer = UnsafeRawBufferPointer(rebasing: raw[0..<length])
            let message: STUNMessage
            do {
                message = try STUNMessage(parsing: answer)
            } catch {
                preconditionFailure("the agent's answer does not parse: \(error)")
            }
            precondition(message.fingerprint != nil, "an answer without FINGERPRINT")
            let requestHeader = try? STUNMessageHeader(parsing: request)
            precondition(requestHeader?.transactionID == message.transactionID, "an answer to another transaction")
            if message.integrity != nil {
                var scratch = [UInt8](repeating: 0, count: length)
                let valid = scratch.withUnsafeMutableBytes { scratch in
                    Array(stunCredentials.password.utf8).withUnsafeBytes { key in
                        STUNMessageIntegrity.isValid(message, in: answer, key: key, scratch: scratch)
                    }
                }
                precondition(valid, "the agent's MESSAGE-INTEGRITY does not verify")
            }
            return message
        }
    }
}
