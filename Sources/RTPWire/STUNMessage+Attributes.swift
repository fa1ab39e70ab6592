extension STUNMessage {
    /// The first attribute of `type` in `packet`, the buffer this message was parsed from.
    public func firstAttribute(_ type: STUNAttributeType, in packet: UnsafeRawBufferPointer) -> STUNAttribute? {
        var attributes = STUNAttributeIterator(UnsafeRawBufferPointer(rebasing: packet[0..<min(length, packet.count)]))
        while let attribute = attributes.next() {
            if attribute.type == type { return attribute }
        }
        return nil
    }

    /// The USERNAME value bytes (UTF-8, unpadded), or nil without one.
    public func username(in packet: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        firstAttribute(.username, in: packet)?.value(in: packet)
    }

    /// The SOFTWARE value bytes (UTF-8, unpadded), or nil without one.
    public func software(in packet: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        firstAttribute(.software, in: packet)?.value(in: packet)
    }

    /// The PRIORITY value, or nil without one.
    public func priority(in packet: UnsafeRawBufferPointer) -> UInt32? {
        guard let value = firstAttribute(.priority, in: packet)?.value(in: packet), value.count == 4 else { return nil }
        return value.readUInt32(at: 0)
    }

    /// Whether the message carries USE-CANDIDATE.
    public func hasUseCandidate(in packet: UnsafeRawBufferPointer) -> Bool {
        firstAttribute(.useCandidate, in: packet) != nil
    }

    /// The tie-breaker of ICE-CONTROLLED, or nil without one.
    public func iceControlled(in packet: UnsafeRawBufferPointer) -> UInt64? {
        tieBreaker(.iceControlled, in: packet)
    }

    /// The tie-breaker of ICE-CONTROLLING, or nil without one.
    public func iceControlling(in packet: UnsafeRawBufferPointer) -> UInt64? {
        tieBreaker(.iceControlling, in: packet)
    }

    /// The decoded XOR-MAPPED-ADDRESS, or nil when it is missing or malformed.
    public func xorMappedAddress(in packet: UnsafeRawBufferPointer) -> STUNAddress? {
        guard let value = firstAttribute(.xorMappedAddress, in: packet)?.value(in: packet) else { return nil }
        return STUNAddress(xorValue: value, transactionID: transactionID)
    }

    /// The ERROR-CODE number, or nil when it is missing or malformed.
    public func errorCode(in packet: UnsafeRawBufferPointer) -> STUNErrorCode? {
        guard let value = firstAttribute(.errorCode, in: packet)?.value(in: packet) else { return nil }
        return STUNErrorCode(errorCodeValue: value)
    }

    private func tieBreaker(_ type: STUNAttributeType, in packet: UnsafeRawBufferPointer) -> UInt64? {
        guard let value = firstAttribute(type, in: packet)?.value(in: packet), value.count == 8 else { return nil }
        return value.readUInt64(at: 0)
    }
}
