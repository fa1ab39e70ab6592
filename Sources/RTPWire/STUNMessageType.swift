/// The 14-bit message type at the start of every STUN header: a method and a class whose
/// bits are interleaved (RFC 8489 section 5).
///
/// The class bits sit at bit 4 (C0) and bit 8 (C1); the method's twelve bits fill the rest,
/// so that binding request, success and error come out as 0x0001, 0x0101 and 0x0111.
public struct STUNMessageType: Sendable, Hashable {
    /// The method, such as Binding.
    public var method: STUNMethod
    /// Request, indication, success response or error response.
    public var messageClass: STUNMessageClass

    /// Creates a message type from its method and class.
    public init(method: STUNMethod, messageClass: STUNMessageClass) {
        self.method = method
        self.messageClass = messageClass
    }

    /// Splits the type field as it appears on the wire; the two top bits, which are not part
    /// of the type, are ignored.
    public init(rawValue: UInt16) {
        let bits = rawValue & 0x3FFF
        let methodBits = (bits & 0x000F) | ((bits & 0x00E0) >> 1) | ((bits & 0x3E00) >> 2)
        let classBits = ((bits & 0x0010) >> 4) | ((bits & 0x0100) >> 7)
        self.method = STUNMethod(rawValue: methodBits)
        // Two bits always name one of the four classes.
        self.messageClass = STUNMessageClass(rawValue: UInt8(classBits)) ?? .request
    }

    /// The type field as it appears on the wire.
    public var rawValue: UInt16 {
        let methodBits = method.rawValue
        let classBits = UInt16(messageClass.rawValue)
        return (methodBits & 0x000F) | ((methodBits & 0x0070) << 1) | ((methodBits & 0x0F80) << 2)
            | ((classBits & 0b01) << 4) | ((classBits & 0b10) << 7)
    }

    /// A Binding request, the ICE connectivity check.
    public static let bindingRequest = STUNMessageType(method: .binding, messageClass: .request)
    /// A Binding success response.
    public static let bindingSuccessResponse = STUNMessageType(method: .binding, messageClass: .successResponse)
    /// A Binding error response.
    public static let bindingErrorResponse = STUNMessageType(method: .binding, messageClass: .errorResponse)
    /// A Binding indication, which ICE uses as a keepalive that needs no answer.
    public static let bindingIndication = STUNMessageType(method: .binding, messageClass: .indication)
}
