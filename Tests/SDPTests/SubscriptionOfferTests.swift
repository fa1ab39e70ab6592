import SDP
import Testing

@Suite("Subscribe: the relay offers")
struct SubscriptionOfferTests {
    let negotiator = RelayNegotiator()
    let relay = NegotiationFixtures.relay
    typealias Fixtures = SubscriptionFixtures

    // The transport attributes appear at session level as well as in each section, for
    // peers (aiortc) that look for them outside the sections.
    @Test("the whole offer for an audio and a video track")
    func offerText() throws {
        let offer = try negotiator.offer(forSubscription: [Fixtures.aliceAudio, Fixtures.aliceVideo], relay: relay, version: 5)
        let transport = """
            a=ice-ufrag:rl7Q\r
            a=ice-pwd:Vb8Tn2Kx5Rw9Lm3Qz6Hd1Pf4\r
            a=fingerprint:sha-256 47:DE:63:6C:0E:80:6C:95:7B:A6:84:D6:43:1F:B5:EA:D7:42:4D:09:E1:5D:02:4C:58:48:F2:3D:1F:A6:F7:36\r
            a=setup:actpass\r
            a=candidate:1 1 udp 2130706431 203.0.113.10 40012 typ host\r
            a=end-of-candidates\r
            a=rtcp-mux\r
            a=rtcp-rsize\r
            a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid\r
            """
        #expect(
            offer.sdp == """
                v=0\r
                o=- 6803327717530214902 5 IN IP4 0.0.0.0\r
                s=-\r
                t=0 0\r
                a=ice-lite\r
                a=ice-ufrag:rl7Q\r
                a=ice-pwd:Vb8Tn2Kx5Rw9Lm3Qz6Hd1Pf4\r
                a=fingerprint:sha-256 47:DE:63:6C:0E:80:6C:95:7B:A6:84:D6:43:1F:B5:EA:D7:42:4D:09:E1:5D:02:4C:58:48:F2:3D:1F:A6:F7:36\r
                a=setup:actpass\r
                a=group:BUNDLE a0 v0\r
                a=msid-semantic:WMS *\r
                m=audio 40012 UDP/TLS/RTP/SAVPF 111\r
                c=IN IP4 203.0.113.10\r
                a=mid:a0\r
                a=sendonly\r
                a=msid:alice alice-mic\r
                \(transport)
                a=extmap:2 urn:ietf:params:rtp-hdrext:ssrc-audio-level\r
                a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01\r
                a=rtpmap:111 opus/48000/2\r
                a=rtcp-fb:111 transport-cc\r
                a=fmtp:111 minptime=10;useinbandfec=1\r
                a=ssrc:1001 cname:relay-7f3a\r
                a=ssrc:1001 msid:alice alice-mic\r
                m=video 40012 UDP/TLS/RTP/SAVPF 96 97\r
                c=IN IP4 203.0.113.10\r
                a=mid:v0\r
                a=sendonly\r
                a=msid:alice alice-cam\r
                \(transport)
                a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01\r
                a=rtpmap:96 VP8/90000\r
                a=rtcp-fb:96 nack\r
                a=rtcp-fb:96 nack pli\r
                a=rtcp-fb:96 ccm fir\r
                a=rtcp-fb:96 transport-cc\r
                a=rtpmap:97 rtx/90000\r
                a=fmtp:97 apt=96\r
                a=ssrc-group:FID 2001 2002\r
                a=ssrc:2001 cname:relay-7f3a\r
                a=ssrc:2001 msid:alice alice-cam\r
                a=ssrc:2002 cname:relay-7f3a\r
                a=ssrc:2002 msid:alice alice-cam\r

                """)
        #expect(try SessionDescription(parsing: offer.sdp) == offer.sessionDescription)
    }

    @Test("without transport-wide congestion control, subscribers are offered neither the number nor its feedback")
    func withoutTransportWideCongestionControl() throws {
        let negotiator = RelayNegotiator(capabilities: RelayCapabilities().withoutTransportWideCongestionControl())
        let offer = try negotiator.offer(forSubscription: [Fixtures.aliceAudio, Fixtures.aliceVideo], relay: relay, version: 1)
        #expect(!offer.sdp.contains("transport-cc") && !offer.sdp.contains(HeaderExtensionURI.transportWideSequenceNumber))
        #expect(offer.sdp.contains("a=rtcp-fb:96 nack pli"))
    }

    /// The mids, ports and directions of an offer's sections.
    func layout(of offer: SubscriptionOffer) -> [String] {
        offer.sessionDescription.media.map { "\($0.mid ?? "?") \($0.kind) \($0.port) \($0.direction?.rawValue ?? "-")" }
    }

    /// The lines of an inactive section the relay offers: the relay's port and transport,
    /// rtcp-mux and rtcp-rsize, `a=inactive`, and only the first codec of the track it last
    /// carried.
    func inactiveLines(_ mediaLine: String, mid: String, rtpMap: String) -> [String] {
        [
            mediaLine, "c=IN IP4 203.0.113.10", "a=mid:\(mid)", "a=inactive", "a=ice-ufrag:rl7Q", "a=ice-pwd:Vb8Tn2Kx5Rw9Lm3Qz6Hd1Pf4",
            "a=fingerprint:sha-256 47:DE:63:6C:0E:80:6C:95:7B:A6:84:D6:43:1F:B5:EA:D7:42:4D:09:E1:5D:02:4C:58:48:F2:3D:1F:A6:F7:36",
            "a=setup:actpass", "a=candidate:1 1 udp 2130706431 203.0.113.10 40012 typ host", "a=end-of-candidates",
            "a=rtcp-mux", "a=rtcp-rsize", rtpMap,
        ]
    }

    @Test("renegotiation keeps m-line order: add, remove (inactive, still bundled), re-add")
    func renegotiation() throws {
        let port = relay.candidatePort
        let first = try negotiator.offer(forSubscription: [Fixtures.aliceAudio, Fixtures.aliceVideo], relay: relay, version: 1)
        #expect(layout(of: first) == ["a0 audio \(port) sendonly", "v0 video \(port) sendonly"])

        // Bob's camera joins: a new section at the end.
        let added = try negotiator.offer(
            forSubscription: [Fixtures.aliceAudio, Fixtures.aliceVideo, Fixtures.bobVideo], previous: first.layout,
            relay: relay, version: 2)
        #expect(layout(of: added) == ["a0 audio \(port) sendonly", "v0 video \(port) sendonly", "v1 video \(port) sendonly"])
        #expect(added.sessionDescription.origin.sessionVersion == 2)
        #expect(added.sessionDescription.groups == [.bundle(["a0", "v0", "v1"])])

        // Alice's camera stops: its section stays in place, inactive but not stopped (the
        // relay's port and transport), and stays in BUNDLE so the transport survives in
        // browsers whichever section tags the group.
        let removed = try negotiator.offer(
            forSubscription: [Fixtures.aliceAudio, Fixtures.bobVideo], previous: added.layout, relay: relay, version: 3)
        #expect(layout(of: removed) == ["a0 audio \(port) sendonly", "v0 video \(port) inactive", "v1 video \(port) sendonly"])
        #expect(removed.sessionDescription.groups == [.bundle(["a0", "v0", "v1"])])
        #expect(
            removed.sessionDescription.media[1].serializedLines()
                == inactiveLines("m=video 40012 UDP/TLS/RTP/SAVPF 96", mid: "v0", rtpMap: "a=rtpmap:96 VP8/90000"))
        #expect(removed.layout.activeMids == ["a0", "v1"])
        #expect(removed.layout.slots.map(\.mid) == ["a0", "v0", "v1"])

        // Alice's camera comes back: it returns to its own section.
        let readded = try negotiator.offer(
            forSubscription: [Fixtures.aliceAudio, Fixtures.aliceVideo, Fixtures.bobVideo], previous: removed.layout,
            relay: relay, version: 4)
        #expect(layout(of: readded) == layout(of: added))
        #expect(readded.sessionDescription.groups == [.bundle(["a0", "v0", "v1"])])
        #expect(readded.sessionDescription.media[1].ssrcGroups == [SDPSSRCGroup(semantics: "FID", ssrcs: [2001, 2002])])
    }

    @Test("a new mid always gets a new section; an inactive section is reused only through its mid")
    func reuseByMid() throws {
        let port = relay.candidatePort
        let first = try negotiator.offer(
            forSubscription: [Fixtures.aliceAudio, Fixtures.aliceVideo, Fixtures.bobVideo], relay: relay, version: 1)

        // Alice's camera stops while Carol's joins: Carol's camera is appended, v0 stays inactive.
        let swapped = try negotiator.offer(
            forSubscription: [Fixtures.aliceAudio, Fixtures.bobVideo, Fixtures.carolVideo], previous: first.layout,
            relay: relay, version: 2)
        #expect(
            layout(of: swapped) == [
                "a0 audio \(port) sendonly", "v0 video \(port) inactive", "v1 video \(port) sendonly", "v2 video \(port) sendonly",
            ])
        #expect(swapped.sessionDescription.groups == [.bundle(["a0", "v0", "v1", "v2"])])

        // In the next offer, the client has seen v0 inactive; still, Dave's camera with a new
        // mid is appended (after Bob's audio, in the order given) rather than taking v0: a
        // section keeps its mid for life.
        let daveVideo = OutgoingTrackDescription(
            mid: "v3", kind: .video, codec: .vp8(payloadType: 96), ssrc: 6001, cname: "relay-7f3a", streamID: "dave",
            trackID: "dave-cam")
        let appended = try negotiator.offer(
            forSubscription: [Fixtures.aliceAudio, Fixtures.bobVideo, Fixtures.carolVideo, Fixtures.bobAudio, daveVideo],
            previous: swapped.layout, relay: relay, version: 3)
        #expect(
            layout(of: appended) == [
                "a0 audio \(port) sendonly", "v0 video \(port) inactive", "v1 video \(port) sendonly", "v2 video \(port) sendonly",
                "a1 audio \(port) sendonly", "v3 video \(port) sendonly",
            ])
        #expect(appended.sessionDescription.groups == [.bundle(["a0", "v0", "v1", "v2", "a1", "v3"])])
        #expect(appended.layout.activeMids == ["a0", "v1", "v2", "a1", "v3"])

        // Given v0 as its mid, Dave's camera reactivates the inactive section in place, with
        // its own codec and SSRC (no rtx) and none of Alice's.
        let daveOnV0 = changed(daveVideo) { $0.mid = "v0" }
        let reused = try negotiator.offer(
            forSubscription: [Fixtures.aliceAudio, daveOnV0, Fixtures.bobVideo, Fixtures.carolVideo, Fixtures.bobAudio],
            previous: appended.layout, relay: relay, version: 4)
        #expect(
            layout(of: reused) == [
                "a0 audio \(port) sendonly", "v0 video \(port) sendonly", "v1 video \(port) sendonly", "v2 video \(port) sendonly",
                "a1 audio \(port) sendonly", "v3 video \(port) inactive",
            ])
        #expect(reused.sessionDescription.groups == [.bundle(["a0", "v0", "v1", "v2", "a1", "v3"])])
        let section = reused.sessionDescription.media[1]
        #expect(section.msids == [SDPMsid(streamID: "dave", trackID: "dave-cam")])
        #expect(section.announcedSSRCs == [6001])
        #expect(section.ssrcGroups.isEmpty)
        #expect(section.payloadTypes == [96])
    }

    @Test("everything removed: every section inactive, still bundled, transport at session level")
    func allRemoved() throws {
        let first = try negotiator.offer(forSubscription: [Fixtures.aliceAudio], relay: relay, version: 1)
        let empty = try negotiator.offer(forSubscription: [], previous: first.layout, relay: relay, version: 2)
        #expect(layout(of: empty) == ["a0 audio \(relay.candidatePort) inactive"])
        #expect(empty.layout.activeMids.isEmpty)
        // The group keeps the inactive section, so the client keeps the transport for tracks
        // that come later.
        #expect(empty.sessionDescription.groups == [.bundle(["a0"])])
        #expect(
            empty.sessionDescription.media[0].serializedLines()
                == inactiveLines("m=audio 40012 UDP/TLS/RTP/SAVPF 111", mid: "a0", rtpMap: "a=rtpmap:111 opus/48000/2"))
        #expect(
            empty.sessionDescription.transport
                == SDPTransportAttributes(
                    iceUsernameFragment: relay.iceUsernameFragment, icePassword: relay.icePassword, fingerprints: [relay.fingerprint],
                    setup: .actpass))
        #expect(try SessionDescription(parsing: empty.sdp) == empty.sessionDescription)
    }

    @Test(
        "tracks the relay cannot offer give their error",
        arguments: [
            ("duplicate mid", [SubscriptionFixtures.aliceVideo, SubscriptionFixtures.aliceVideo], SDPNegotiationError.duplicateMid("v0")),
            (
                "duplicate SSRC", [SubscriptionFixtures.aliceVideo, changed(SubscriptionFixtures.bobVideo) { $0.rtxSSRC = 2001 }],
                .duplicateSSRC(2001)
            ),
            (
                "payload type conflict",
                [
                    SubscriptionFixtures.aliceVideo,
                    changed(SubscriptionFixtures.carolVideo) {
                        $0.codec.payloadType = 96
                        $0.rtxPayloadType = 98
                    },
                ],
                .payloadTypeConflict(payloadType: 96, mids: ["v0", "v2"])
            ),
            (
                "rtx payload type conflict", [SubscriptionFixtures.aliceVideo, changed(SubscriptionFixtures.carolVideo) { $0.rtxPayloadType = 97 }],
                .payloadTypeConflict(payloadType: 97, mids: ["v0", "v2"])
            ),
            ("mid with a space", [changed(SubscriptionFixtures.aliceAudio) { $0.mid = "a 0" }], .invalidMid("a 0")),
            ("empty mid", [changed(SubscriptionFixtures.aliceAudio) { $0.mid = "" }], .invalidMid("")),
            (
                "cname with a space", [changed(SubscriptionFixtures.aliceAudio) { $0.cname = "relay 1" }],
                .invalidTrackIdentifier(mid: "a0", field: "cname")
            ),
            ("empty track id", [changed(SubscriptionFixtures.aliceAudio) { $0.trackID = "" }], .invalidTrackIdentifier(mid: "a0", field: "track id")),
            (
                "data track", [changed(SubscriptionFixtures.aliceAudio) { $0.kind = .application }],
                .unsupportedTrackKind(mid: "a0", kind: .application)
            ),
            (
                "payload type 128", [changed(SubscriptionFixtures.aliceAudio) { $0.codec.payloadType = 128 }],
                .invalidPayloadType(mid: "a0", payloadType: 128)
            ),
            (
                "rtx on the codec's payload type", [changed(SubscriptionFixtures.aliceVideo) { $0.rtxPayloadType = 96 }],
                .invalidPayloadType(mid: "v0", payloadType: 96)
            ),
            ("rtx payload type without SSRC", [changed(SubscriptionFixtures.aliceVideo) { $0.rtxSSRC = nil }], .incompleteRetransmission(mid: "v0")),
            ("rtx SSRC equal to the media SSRC", [changed(SubscriptionFixtures.aliceVideo) { $0.rtxSSRC = 2001 }], .duplicateSSRC(2001)),
        ] as [(String, [OutgoingTrackDescription], SDPNegotiationError)])
    func invalidTracks(name: String, tracks: [OutgoingTrackDescription], expected: SDPNegotiationError) {
        #expect(throws: expected) { try negotiator.offer(forSubscription: tracks, relay: relay, version: 1) }
    }

    @Test("a stored layout with a repeated mid is refused")
    func repeatedSlot() {
        let slot = SubscriptionSlot(track: Fixtures.aliceAudio, isActive: false)
        #expect(throws: SDPNegotiationError.duplicateMid("a0")) {
            try negotiator.offer(forSubscription: [], previous: SubscriptionLayout(slots: [slot, slot]), relay: relay, version: 1)
        }
    }

    @Test("a mid keeps its kind")
    func kindChange() throws {
        let first = try negotiator.offer(forSubscription: [Fixtures.aliceVideo], relay: relay, version: 1)
        let audioOnVideoMid = changed(Fixtures.aliceAudio) { $0.mid = "v0" }
        #expect(throws: SDPNegotiationError.trackKindChanged(mid: "v0", previous: .video, requested: .audio)) {
            try negotiator.offer(forSubscription: [audioOnVideoMid], previous: first.layout, relay: relay, version: 2)
        }
    }
}

/// `track` with `change` applied.
func changed(_ track: OutgoingTrackDescription, _ change: (inout OutgoingTrackDescription) -> Void) -> OutgoingTrackDescription {
    var copy = track
    change(&copy)
    return copy
}
