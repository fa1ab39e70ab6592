public import RTPWire
public import SecureTransport

extension STUNTransactionID {
    /// A transaction ID from the cryptographically secure generator, for checks this side sends.
    public static func secureRandom() -> STUNTransactionID {
        let bytes = SecureRandom.bytes(12)
        guard let transactionID = STUNTransactionID(bytes: bytes) else {
            preconditionFailure("the secure generator returned \(bytes.count) bytes instead of 12")
        }
        return transactionID
    }
}
