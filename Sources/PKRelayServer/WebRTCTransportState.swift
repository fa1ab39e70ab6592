import ICE
import MediaPlane
import RoomEngine
import SDP
import SecureTransport

/// The control plane's side of one WebRTC transport: its ICE credentials, its DTLS handshake
/// (which never runs on the data-plane thread), and, for a receiving transport, the SDP offers
/// the relay makes as tracks come and go. Lives inside the ``RelayCore`` actor.
final class WebRTCTransportState {
    /// What the transport is used for; fixed by its first use.
    enum Purpose { case undecided, publish, receive }

    let id: Int
    let session: SessionID
    let credentials: ICECredentials
    /// Session id of the relay's SDP for this transport.
    let sdpSessionID: UInt64
    var purpose = Purpose.undecided
    /// Where ICE checks came from; DTLS records go back there.
    var remote: IPv4Endpoint?
    /// Created once the client's fingerprints are known (offer or answer).
    var dtls: DTLSEndpoint?
    /// DTLS records that arrived before the client's SDP did (a fast client starts its
    /// handshake before its answer reaches the relay).
    var earlyDatagrams: [[UInt8]] = []
    var connected = false
    /// The header-extension id of rtp-stream-id in a publisher's offer, for simulcast layers.
    var ridExtensionId: UInt8?

    // Receiving transports: the relay is the offerer.
    /// The tracks to deliver, by sink id.
    var tracks: [UInt32: OutgoingTrackDescription] = [:]
    /// Sinks seen in actions before their description arrived, by sink id: output SSRC and kind.
    var sinkSSRCs: [UInt32: UInt32] = [:]
    /// The mids given out, by sink id; a sink keeps its mid while it exists.
    var mids: [UInt32: String] = [:]
    var nextMid = 0
    /// The codec each payload type means in this transport's offers ("name/clock/channels/fmtp"):
    /// one BUNDLE shares one payload-type space, while publishers choose numbers on their own.
    var payloadTypeCodecs: [UInt8: String] = [:]
    /// The lowest dynamic payload type (96-127) this transport's offers do not use yet.
    var freeDynamicPayloadType: UInt8? {
        (UInt8(96)...UInt8(127)).first { payloadTypeCodecs[$0] == nil }
    }
    /// The payload type each sink is sent with, by sink id.
    var sinkPayloadTypes: [UInt32: UInt8] = [:]
    /// The SSRC of each video sink's RFC 4588 retransmission stream, by sink id.
    var sinkRetransmissionSSRCs: [UInt32: UInt32] = [:]
    /// The layout of the last answered offer.
    var layout = SubscriptionLayout()
    /// The offer sent and not yet answered.
    var pendingOffer: SubscriptionOffer?
    var revision = 0
    /// Tracks changed since the last offer.
    var needsOffer = false

    init(id: Int, session: SessionID, credentials: ICECredentials, sdpSessionID: UInt64) {
        self.id = id
        self.session = session
        self.credentials = credentials
        self.sdpSessionID = sdpSessionID
    }

    /// The most records kept while waiting for the client's SDP.
    static let earlyDatagramLimit = 32
}
