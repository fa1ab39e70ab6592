/// Collects the datagrams OpenSSL writes during one call into a ``DTLSEndpoint``.
///
/// A separate object, reached from C through an unretained pointer, so the write callback
/// never touches the endpoint while one of the endpoint's own methods is running.
final class DTLSDatagramCollector {
    /// Datagrams written since the last ``take()``.
    private var datagrams: [[UInt8]] = []

    /// Keeps a copy of one datagram.
    func append(_ datagram: UnsafeBufferPointer<UInt8>) {
        datagrams.append(Array(datagram))
    }

    /// Returns the datagrams collected so far and forgets them.
    func take() -> [[UInt8]] {
        defer { datagrams = [] }
        return datagrams
    }
}
