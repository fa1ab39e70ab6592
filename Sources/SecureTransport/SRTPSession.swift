import CSRTP

/// One libsrtp session: the keys and per-SSRC state for one direction of one transport.
///
/// A session covers every SSRC seen in its direction (libsrtp's wildcard SSRC policies),
/// so one sender session and one receiver session serve a whole peer connection.
///
/// Threading: a session is not thread-safe and deliberately not `Sendable`. It may be
/// created on any thread (for example while handling signalling) and then handed over,
/// once, to the data-plane thread with ``SRTPSessionHandoff``; from then on only that
/// thread uses it, and the creating thread keeps no reference. The per-packet methods
/// neither lock nor allocate, except for the first packet of an SSRC (libsrtp clones a
/// stream, and a sender on OpenSSL records the SSRC's packet index).
public final class SRTPSession {
    /// The protection profile the session was created with.
    public let profile: SRTPProfile
    /// Whether the session protects outgoing or unprotects incoming packets.
    public let direction: SRTPDirection
    /// The libsrtp session handle, owned by this object.
    let context: OpaquePointer
    /// Bytes an RTP packet grows by when protected, cached so the hot path does not switch.
    let rtpTrailerLength: Int
    /// Bytes an RTCP packet grows by when protected.
    let rtcpTrailerLength: Int
    /// RTP is sealed and opened on OpenSSL with the cipher context kept between packets: libsrtp
    /// over NSS sets up a context per packet (for AES-GCM five allocations and about 9 600
    /// instructions, ten times the rest of the relay's work per egress packet; AES-CM with
    /// HMAC-SHA1 costs more still). Packet indices and replay windows follow libsrtp's, so output
    /// and statuses are byte for byte libsrtp's.
    let rtpSealer: SRTPRTPSealer?
    let rtpOpener: SRTPRTPOpener?
    /// ``rtpSealer``'s OpenSSL context, for the per-packet path: a class reference read there is
    /// retained and released around the update of ``sendIndices`` (two atomic operations per
    /// packet), a pointer is not. Valid as long as `rtpSealer`, which owns it and lives as long
    /// as the session.
    let rtpSealContext: OpaquePointer?
    /// SRTCP on OpenSSL too, with libsrtp's SRTCP index per SSRC (sending) and replay window
    /// per SSRC (receiving) kept here; `context` then serves only as the reference.
    let rtcpTransform: SRTCPTransform?
    /// The last SRTCP index sealed per SSRC.
    var rtcpSendIndices: [UInt32: UInt32] = [:]
    /// The SRTCP replay window per SSRC.
    var rtcpWindows: [UInt32: SRTCPReplayWindow] = [:]
    /// The per-SSRC packet indices ``rtpSealer`` protects under.
    var sendIndices: SRTPSendIndices
    /// The per-SSRC replay windows of ``rtpOpener``, and their length.
    var receiveWindows: [UInt32: SRTPReceiveWindow] = [:]
    let replayWindowLength: Int64

    /// The smallest replay window libsrtp accepts.
    public static let minimumReplayWindowSize = 64
    /// The largest replay window libsrtp accepts.
    public static let maximumReplayWindowSize = 0x7FFF

    /// Creates a session from SDES or DTLS-SRTP keying material.
    ///
    /// - Parameters:
    ///   - profile: The negotiated protection profile.
    ///   - keyingMaterial: Master key followed by master salt,
    ///     ``SRTPProfile/keyingMaterialLength`` bytes. It is copied; the caller may wipe it.
    ///   - direction: `.sender` to protect outgoing packets of any SSRC, `.receiver` to
    ///     unprotect incoming packets of any SSRC. Senders may protect the same sequence
    ///     number twice, because NACK answers are resent with their original number.
    ///   - replayWindowSize: Packets the receiver remembers for replay detection; a large
    ///     window tolerates the reordering that retransmissions cause.
    public convenience init(
        profile: SRTPProfile,
        keyingMaterial: [UInt8],
        direction: SRTPDirection,
        replayWindowSize: Int = 1024
    ) throws(SRTPSessionError) {
        try self.init(profile: profile, keyingMaterial: keyingMaterial, direction: direction, replayWindowSize: replayWindowSize, onOpenSSL: true)
    }

    /// The designated initializer; `onOpenSSL: false` keeps the session's RTP and RTCP on libsrtp,
    /// which the tests and the `srtp` fuzz target compare the OpenSSL path against.
    package init(
        profile: SRTPProfile,
        keyingMaterial: [UInt8],
        direction: SRTPDirection,
        replayWindowSize: Int,
        onOpenSSL: Bool
    ) throws(SRTPSessionError) {
        guard keyingMaterial.count == profile.keyingMaterialLength else {
            throw .invalidKeyingMaterialLength(
                expected: profile.keyingMaterialLength, actual: keyingMaterial.count)
        }
        guard (Self.minimumReplayWindowSize...Self.maximumReplayWindowSize).contains(replayWindowSize)
        else {
            throw .replayWindowSizeOutOfRange(replayWindowSize)
        }
        // Made before libsrtp's session, so that a failure here leaves nothing to free.
        let rtpSealer = onOpenSSL && direction == .sender ? try SRTPRTPSealer(profile: profile, keyingMaterial: keyingMaterial) : nil
        let rtpOpener = onOpenSSL && direction == .receiver ? try SRTPRTPOpener(profile: profile, keyingMaterial: keyingMaterial) : nil
        let rtcpTransform = onOpenSSL ? try SRTCPTransform(profile: profile, keyingMaterial: keyingMaterial, sealing: direction == .sender) : nil
        let initialization = SRTPLibrary.initialize()
        guard initialization == .ok else {
            throw .srtpInitializationFailed(initialization)
        }

        let profileCode: Int32 =
            switch profile {
            case .aeadAES128GCM: PKR_SRTP_PROFILE_AEAD_AES_128_GCM
            case .aesCM128HMACSHA1_80: PKR_SRTP_PROFILE_AES_CM_128_HMAC_SHA1_80
            }
        let directionCode: Int32 =
            switch direction {
            case .sender: PKR_SRTP_DIRECTION_SENDER
            case .receiver: PKR_SRTP_DIRECTION_RECEIVER
            }

        var created: OpaquePointer? = nil
        let status = keyingMaterial.withUnsafeBufferPointer { material in
            pkr_srtp_session_create(
                &created, profileCode, material.baseAddress, material.count,
                directionCode, UInt(replayWindowSize))
        }
        guard status == srtp_err_status_ok, let created else {
            throw .creationFailed(SRTPStatus(libraryStatus: status))
        }

        self.profile = profile
        self.direction = direction
        self.context = created
        self.rtpTrailerLength = profile.rtpTrailerLength
        self.rtcpTrailerLength = profile.rtcpTrailerLength
        self.rtpSealer = rtpSealer
        rtpSealContext = rtpSealer?.sealer
        self.rtpOpener = rtpOpener
        self.rtcpTransform = rtcpTransform
        sendIndices = SRTPSendIndices(replayWindowSize: replayWindowSize)
        replayWindowLength = SRTPPacketIndex.windowLength(replayWindowSize)
    }

    deinit {
        _ = srtp_dealloc(context)
    }
}

/// A session holds mutable per-SSRC state without any locking, so it must never be
/// shared between threads; ``SRTPSessionHandoff`` is the one sanctioned way to move it.
@available(*, unavailable)
extension SRTPSession: Sendable {}
