import Foundation
import SDP
import Testing

/// A player (WHEP) offers to receive: the relay answers in the player's numbering.
@Suite("Play: the player offers")
struct PlayerOfferTests {
    static let transportWide = "a=extmap:5 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"

    /// A Chromium-shaped receive-only offer, with the transport-wide number under id 5 and
    /// `transport-cc` on VP8 when `transportWide`.
    static func offer(transportWide: Bool) -> String {
        let text = NegotiationFixtures.offer(
            videoPayloadTypes: "96 97",
            videoCodecLines: ["a=rtpmap:96 VP8/90000", "a=rtcp-fb:96 nack", "a=rtcp-fb:96 nack pli"]
                + (transportWide ? ["a=rtcp-fb:96 transport-cc"] : []) + ["a=rtpmap:97 rtx/90000", "a=fmtp:97 apt=96"])
        return NegotiationFixtures.edited(
            text, removing: ["a=msid:"],
            replacing: [
                "a=sendonly": ["a=recvonly"],
                "a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid": ["a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid"]
                    + (transportWide ? [Self.transportWide] : []),
            ])
    }

    static let track = OutgoingTrackDescription(
        mid: "1", kind: .video, codec: CodecDescription(payloadType: 96, name: "VP8", clockRate: 90_000), rtxPayloadType: 97, ssrc: 2001,
        rtxSSRC: 2002, cname: "relay-7f3a", streamID: "alice", trackID: "alice-cam")

    @Test("a player that offers the transport-wide number gets it in the answer under its own id, with transport-cc feedback")
    func transportWideKept() throws {
        let negotiator = RelayNegotiator()
        let player = try negotiator.readPlayerOffer(Self.offer(transportWide: true))
        #expect(player.transportWideSequenceExtensionId == 5)
        let answer = negotiator.answer(toPlayerOffer: player, tracks: [Self.track], relay: NegotiationFixtures.relay)
        #expect(answer.contains(Self.transportWide + "\r\n"))
        #expect(answer.contains("a=rtcp-fb:96 transport-cc\r\n"))
    }

    @Test("a player that does not offer it, or a relay without it, gets neither the number nor the feedback")
    func transportWideLeftOut() throws {
        for (negotiator, transportWide) in [
            (RelayNegotiator(), false), (RelayNegotiator(capabilities: RelayCapabilities().withoutTransportWideCongestionControl()), true),
        ] {
            let player = try negotiator.readPlayerOffer(Self.offer(transportWide: transportWide))
            #expect(player.transportWideSequenceExtensionId == nil)
            let answer = negotiator.answer(toPlayerOffer: player, tracks: [Self.track], relay: NegotiationFixtures.relay)
            #expect(!answer.contains("transport-wide-cc") && !answer.contains("transport-cc"))
            #expect(answer.contains("a=rtcp-fb:96 nack pli\r\n"))
        }
    }
}
