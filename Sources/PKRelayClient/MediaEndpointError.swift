/// Why a ``MediaEndpoint`` operation failed.
public enum MediaEndpointError: Error, Sendable, Equatable {
    /// The socket could not be opened or bound; the errno.
    case socketFailed(Int32)
    /// The address is not a dotted IPv4 address.
    case invalidAddress(String)
    /// The SRTP key is missing, not base64, or of the wrong length for the profile.
    case invalidKey(String)
    /// The profile name is not one this client knows.
    case unsupportedProfile(String)
    /// Protecting the packet failed.
    case protectFailed(String)
    /// The kernel refused the datagram; the errno.
    case sendFailed(Int32)
    /// The endpoint is closed.
    case closed
}
