import COpenSSLShims

/// One side of one DTLS-SRTP association, as a state machine over datagrams.
///
/// The endpoint never touches a socket: feed it every datagram received from the peer that
/// demultiplexes as DTLS (first byte 20 through 63, RFC 7983) with ``handleDatagram(_:)``,
/// call ``handleTimeout()`` when ``nextTimeout`` has elapsed, and send every datagram the
/// returned ``DTLSStepResult`` holds, one UDP payload each, in order. A client starts with
/// ``start()``, which produces the ClientHello.
///
/// When the handshake completes, the endpoint checks the peer's certificate against the
/// expected fingerprints (from the peer's SDP) and the negotiated SRTP profile, and moves to
/// ``DTLSState/connected(_:)`` with the SRTP keys for both directions. Anything wrong ends
/// in ``DTLSState/failed(_:)`` with a ``DTLSFailureReason``. Input that is not DTLS, and
/// broken, forged or out-of-place records, is dropped; it never crashes the endpoint and
/// affects no other. During the handshake, records are not yet authenticated, so forged
/// ones can cost a retransmission or, at worst, end this endpoint's handshake (a forged
/// fatal alert, or a timeout) as with any DTLS 1.2 implementation; the transport should only
/// feed datagrams from the peer's ICE-validated address. Once the endpoint has failed or
/// closed it ignores every datagram.
///
/// Threading: not thread-safe and deliberately not `Sendable`; the thread that owns the
/// transport owns its endpoint and makes every call.
public final class DTLSEndpoint {
    /// The default largest datagram: room for IPv6 and TURN headers under common path MTUs.
    public static let defaultMaximumDatagramSize = 1200
    /// The smallest largest-datagram size OpenSSL accepts.
    public static let minimumMaximumDatagramSize = 256
    /// Label of the DTLS-SRTP keying material exporter (RFC 5764 section 4.2).
    static let exporterLabel = "EXTRACTOR-dtls_srtp"
    /// Most reads for one incoming datagram: enough for the largest UDP payload in pieces of
    /// ``readBufferSize``.
    static let maximumReadsPerDatagram = 64
    /// Size of the buffer application data is read into and dropped from; OpenSSL keeps the
    /// rest of a longer record for the next read.
    static let readBufferSize = 2048

    /// Which side of the handshake this endpoint plays.
    public let role: DTLSRole
    /// Fingerprints the peer's certificate is checked against; any one matching is enough.
    public let expectedPeerFingerprints: [DTLSFingerprint]
    /// The largest datagram the endpoint sends; handshake flights are fragmented to fit.
    public let maximumDatagramSize: Int
    /// The current state.
    public private(set) var state: DTLSState = .connecting
    /// The SHA-256 fingerprint of the certificate the peer presented, once the handshake
    /// has completed (also when it then failed the fingerprint check), for logs.
    public internal(set) var peerFingerprint: DTLSFingerprint?

    /// The OpenSSL connection, owned by this object.
    let connection: OpaquePointer
    /// Where OpenSSL's outgoing datagrams land; C holds an unretained pointer to it.
    let collector = DTLSDatagramCollector()
    /// Set when a call changed the state, so its result can report the change.
    var stateChanged = false
    /// Whether the handshake has been started, by ``start()`` or by a first datagram.
    var started = false
    /// Scratch space for application data, which this endpoint drops.
    var readBuffer: [UInt8]

    /// Creates an endpoint from `context`.
    ///
    /// - Parameters:
    ///   - context: The shared configuration (certificate, SRTP profiles).
    ///   - role: Client or server.
    ///   - expectedPeerFingerprints: The fingerprints from the peer's SDP; not empty.
    ///   - maximumDatagramSize: The largest UDP payload to send, at least 256 bytes.
    ///   - initialRetransmissionTimeout: How long to wait for the peer's answer to a flight
    ///     before sending it again; each retransmission doubles the wait.
    ///   - maximumRetransmissionTimeout: The longest wait between retransmissions. OpenSSL
    ///     gives up after twelve retransmissions, and the endpoint then fails with
    ///     ``DTLSFailureReason/timeout``.
    public init(
        context: DTLSContext,
        role: DTLSRole,
        expectedPeerFingerprints: [DTLSFingerprint],
        maximumDatagramSize: Int = DTLSEndpoint.defaultMaximumDatagramSize,
        initialRetransmissionTimeout: Duration = .seconds(1),
        maximumRetransmissionTimeout: Duration = .seconds(60)
    ) throws(DTLSError) {
        guard !expectedPeerFingerprints.isEmpty else {
            throw .noExpectedFingerprints
        }
        guard maximumDatagramSize >= Self.minimumMaximumDatagramSize else {
            throw .maximumDatagramSizeTooSmall(maximumDatagramSize)
        }
        guard let initialMicroseconds = Self.timerMicroseconds(initialRetransmissionTimeout),
            let maximumMicroseconds = Self.timerMicroseconds(maximumRetransmissionTimeout),
            initialMicroseconds <= maximumMicroseconds
        else {
            throw .invalidRetransmissionTimeouts
        }
        guard let created = pkr_dtls_new(context.context, role == .server ? 1 : 0) else {
            throw .endpointSetupFailed(DTLSErrorText.take())
        }
        let sink: pkr_dtls_datagram_sink = { owner, datagram, length in
            guard let owner, let datagram else { return }
            Unmanaged<DTLSDatagramCollector>.fromOpaque(owner).takeUnretainedValue()
                .append(UnsafeBufferPointer(start: datagram, count: length))
        }
        // The collector outlives the connection: deinit frees the connection first.
        let owner = Unmanaged.passUnretained(collector).toOpaque()
        guard pkr_dtls_attach_link(created, owner, sink, maximumDatagramSize) == 1,
            pkr_dtls_set_retransmission_timeouts(created, initialMicroseconds, maximumMicroseconds) == 1
        else {
            let explanation = DTLSErrorText.take()
            pkr_dtls_free(created)
            throw .endpointSetupFailed(explanation)
        }
        self.connection = created
        self.role = role
        self.expectedPeerFingerprints = expectedPeerFingerprints
        self.maximumDatagramSize = maximumDatagramSize
        self.readBuffer = [UInt8](repeating: 0, count: Self.readBufferSize)
    }

    deinit {
        pkr_dtls_free(connection)
    }

    /// Starts the handshake: a client produces its ClientHello; a server, which waits for
    /// one, produces nothing. Calling it again, or after the first datagram, does nothing.
    public func start() -> DTLSStepResult {
        if !started, case .connecting = state {
            started = true
            advanceHandshake()
        }
        return finishStep()
    }

    /// Processes one datagram from the peer and returns the datagrams to send in reply.
    ///
    /// Datagrams that are not DTLS, or records that are truncated, out of order, replayed or
    /// fail authentication are dropped as DTLS prescribes. After the endpoint failed or
    /// closed, every datagram is ignored. The reply may also hold retransmissions: OpenSSL
    /// resends its last flight by itself when input arrives after the timer expired.
    public func handleDatagram(_ datagram: [UInt8]) -> DTLSStepResult {
        guard !datagram.isEmpty, !state.isFinished, let screened = Self.screenRecords(datagram) else {
            return finishStep()
        }
        screened.withUnsafeBufferPointer { bytes in
            guard pkr_dtls_set_incoming(connection, bytes.baseAddress, bytes.count) == 1 else { return }
            defer { _ = pkr_dtls_clear_incoming(connection) }
            started = true
            switch state {
            case .connecting: advanceHandshake()
            case .connected: readRecords()
            case .failed, .closed: break
            }
        }
        return finishStep()
    }

    /// How long until ``handleTimeout()`` should be called: `nil` when no retransmission
    /// timer runs, zero when it has already expired.
    public var nextTimeout: Duration? {
        guard case .connecting = state else { return nil }
        var remaining: UInt64 = 0
        guard pkr_dtls_get_timeout(connection, &remaining) == 1 else { return nil }
        return .microseconds(Int64(clamping: remaining))
    }

    /// Retransmits the last flight if the retransmission timer has expired; does nothing
    /// otherwise. Fails the endpoint with ``DTLSFailureReason/timeout`` when OpenSSL has
    /// retransmitted as often as it will.
    public func handleTimeout() -> DTLSStepResult {
        guard case .connecting = state else {
            return finishStep()
        }
        switch pkr_dtls_handle_timeout(connection) {
        case PKR_DTLS_WANT_INPUT: break
        case PKR_DTLS_TIMED_OUT: fail(.timeout)
        default: fail(.handshakeFailure)
        }
        return finishStep()
    }

    /// Closes the association: once connected this produces a close_notify alert for the
    /// peer. The endpoint is closed afterwards, or stays failed if it had failed.
    public func close() -> DTLSStepResult {
        switch state {
        case .connected:
            _ = pkr_dtls_shutdown(connection)
            transition(to: .closed)
        case .connecting:
            // OpenSSL sends no close_notify before the handshake completes.
            transition(to: .closed)
        case .failed, .closed:
            break
        }
        return finishStep()
    }

    /// Moves to `newState` and remembers that the state changed.
    func transition(to newState: DTLSState) {
        state = newState
        stateChanged = true
    }

    /// Collects what this call produced and resets the change marker.
    private func finishStep() -> DTLSStepResult {
        defer { stateChanged = false }
        return DTLSStepResult(datagrams: collector.take(), newState: stateChanged ? state : nil)
    }

    /// `duration` in whole microseconds if it fits OpenSSL's timer (1 µs to about 71 minutes).
    private static func timerMicroseconds(_ duration: Duration) -> UInt32? {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, seconds < Int64(UInt32.max) / 1_000_000 else { return nil }
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        guard microseconds > 0, microseconds <= Int64(UInt32.max) else { return nil }
        return UInt32(microseconds)
    }
}

/// An endpoint holds OpenSSL connection state without any locking, so it must stay on the
/// thread that owns its transport.
@available(*, unavailable)
extension DTLSEndpoint: Sendable {}
