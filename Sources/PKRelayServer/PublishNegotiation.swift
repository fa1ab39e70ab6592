import MediaPlane
import Protocol
import SDP

/// What a publisher's SDP offer settled: the answer for the client, the tracks the engine
/// publishes, the header extension naming simulcast layers, the congestion control the
/// transport takes part in, and the client's transport.
struct PublishNegotiation {
    var answerSDP: String
    var tracks: [TrackDescription]
    var ridExtensionId: UInt8?
    var congestionControl = CongestionControlSpec.none
    var clientTransport: ClientTransportParameters
}
