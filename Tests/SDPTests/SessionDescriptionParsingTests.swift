import SDP
import Testing

@Suite("Parsing real offers")
struct SessionDescriptionParsingTests {
    @Test("session and section structure", arguments: FixtureExpectation.all)
    func structure(_ fixture: FixtureExpectation) throws {
        let description = try SessionDescription(parsing: fixture.text)
        #expect(description.origin.sessionID == fixture.sessionID)
        #expect(description.groups.filter(\.isBundle).map(\.mids) == [fixture.bundle])
        #expect(description.media.map(\.kind) == fixture.kinds)
        #expect(description.media.map(\.mid) == fixture.mids)
        #expect(description.media.map { description.direction(of: $0) } == fixture.directions)
        #expect(description.media.map(\.formats.count) == fixture.formatCounts)
        #expect(description.media.map(\.candidates.count) == fixture.candidateCounts)
        #expect(description.allowsMixedExtensionForms == fixture.allowsMixedExtensionForms)
        #expect(description.media.allSatisfy { $0.isRTCPMultiplexed })
        for section in description.media {
            let transport = description.transport(of: section)
            #expect(transport.iceUsernameFragment == fixture.iceUsernameFragment)
            #expect(transport.fingerprints.map(\.algorithm) == fixture.fingerprintAlgorithms)
            #expect(transport.fingerprints.allSatisfy { $0.bytes?.count == $0.expectedByteCount })
            #expect(transport.setup == fixture.setup)
        }
        let video = try #require(description.media.first { $0.kind == .video })
        #expect(video.announcedSSRCs == fixture.videoSSRCs)
        #expect(video.ssrcGroups.filter { $0.semantics == "FID" }.map(\.ssrcs) == fixture.videoFIDGroups)
        #expect(video.simulcast?.send.flatMap { $0.map(\.rid) } ?? [] == fixture.simulcastSend)
    }

    @Test("the same description from LF, CRLF and indented text", arguments: FixtureExpectation.all)
    func lineEndings(_ fixture: FixtureExpectation) throws {
        let lf = try SessionDescription(parsing: fixture.text)
        let crlf = try SessionDescription(parsing: fixture.text.split(separator: "\n").joined(separator: "\r\n") + "\r\n")
        let padded = try SessionDescription(
            parsing: fixture.text.split(separator: "\n").map { "  \($0) \t" }.joined(separator: "\r\n\r\n"))
        #expect(crlf == lf)
        #expect(padded == lf)
    }

    @Test("Chromium codecs, feedback, extensions and msid")
    func chromiumDetails() throws {
        let description = try SessionDescription(parsing: SDPFixtures.chromiumOffer)
        let audio = description.media[0]
        #expect(audio.rtpMap(for: 111) == SDPRTPMap(payloadType: 111, encodingName: "opus", clockRate: 48_000, channels: 2))
        #expect(audio.formatParameters(for: 111)?.parameter("useinbandfec") == "1")
        #expect(audio.feedback(for: 111).map(\.feedbackValue) == ["transport-cc"])
        #expect(audio.extensionMap(uri: "urn:ietf:params:rtp-hdrext:ssrc-audio-level")?.id == 1)
        #expect(audio.formatParameters(for: 63)?.value == "111/111")
        #expect(audio.msids == [SDPMsid(streamID: "5b1d4f0e-6c2a-4a8e-9d3b-7f61c2e0a9d4", trackID: "e2c7a1b4-3f58-4d69-8a0e-b71c95d36f28")])
        #expect(audio.ssrcAttribute("cname", of: 2_863_412_071) == "Hx7bq2KoT9vLm4Zs")
        #expect(audio.otherAttributes == [SDPAttribute(name: "rtcp", value: "9 IN IP4 0.0.0.0")])

        let video = description.media[1]
        #expect(video.extensionMaps.count == 11)
        #expect(video.extensionMap(uri: "urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id")?.id == 10)
        #expect(video.feedback(for: 96).map(\.feedbackValue) == ["goog-remb", "transport-cc", "ccm fir", "nack", "nack pli"])
        let h264 = video.rtpMaps.filter { $0.isEncoding("h264") }.map(\.payloadType)
        #expect(h264 == [102, 104, 106, 108, 127, 39, 112])
        #expect(video.formatParameters(for: 104)?.parameter("packetization-mode") == "0")
        #expect(video.formatParameters(for: 127)?.parameter("PROFILE-LEVEL-ID") == "4d001f")
        #expect(video.rtpMap(for: 45)?.encodingName == "AV1")
        #expect(video.formatParameters(for: 117)?.parameter("apt") == "116")
        #expect(description.msidSemantic == SDPMsidSemantic(identifiers: ["5b1d4f0e-6c2a-4a8e-9d3b-7f61c2e0a9d4"]))
        #expect(description.transport(of: video).iceOptions == ["trickle"])
    }

    @Test("Chromium simulcast rids")
    func chromiumSimulcast() throws {
        let video = try SessionDescription(parsing: SDPFixtures.chromiumSimulcastOffer).media[1]
        #expect(video.rids == ["h", "m", "l"].map { SDPRID(id: $0, direction: .send) })
        #expect(video.simulcast == SDPSimulcast(send: [[SDPSimulcastStream(rid: "h")], [SDPSimulcastStream(rid: "m")], [SDPSimulcastStream(rid: "l")]]))
        #expect(video.ssrcAttributes.isEmpty)
    }

    @Test("Firefox: session-level fingerprint, extmap directions, telephone-event fmtp")
    func firefoxDetails() throws {
        let description = try SessionDescription(parsing: SDPFixtures.firefoxOffer)
        #expect(description.origin.username == "mozilla...THIS_IS_SDPARTA-133.0")
        #expect(description.transport.fingerprints.count == 1)
        #expect(description.media.allSatisfy { $0.transport.fingerprints.isEmpty })
        let audio = description.media[0]
        #expect(audio.extensionMaps[1] == SDPExtensionMap(id: 2, direction: .recvonly, uri: "urn:ietf:params:rtp-hdrext:csrc-audio-level"))
        #expect(audio.formatParameters(for: 101)?.value == "0-15")
        #expect(audio.formatParameters(for: 101)?.parameters == [SDPParameter(name: "0-15")])
        #expect(audio.rtpMap(for: 9)?.channels == 1)
        let video = description.media[1]
        #expect(video.rtpMap(for: 126)?.encodingName == "H264")
        #expect(video.formatParameters(for: 97)?.parameter("packetization-mode") == nil)
        #expect(video.ssrcAttribute("cname", of: 1_820_453_298) == "{3b9e5f70-a1c4-4d26-9f83-7c0e2d5a64b1}")
    }

    @Test("aiortc: inline candidates and three fingerprints")
    func aiortcDetails() throws {
        let description = try SessionDescription(parsing: SDPFixtures.aiortcOffer)
        let audio = description.media[0]
        #expect(audio.port == 47812)
        #expect(audio.connection == SDPConnection(address: "192.168.1.23"))
        #expect(audio.isEndOfCandidates)
        #expect(
            audio.candidates[0]
                == SDPCandidate(
                    foundation: "4a6f1e0d2c9b8a7f3e5d1c0b9a8f7e6d", component: 1, transport: "udp", priority: 2_130_706_431,
                    address: "192.168.1.23", port: 47812, type: "host"))
        #expect(audio.candidates[1].relatedAddress == "192.168.1.23")
        #expect(audio.candidates[1].relatedPort == 47812)
        #expect(audio.candidates[1].type == "srflx")
        #expect(audio.transport.fingerprints.map { $0.bytes?.count } == [32, 48, 64])
        #expect(description.media[1].formatParameters(for: 101)?.parameter("profile-level-id") == "42e01f")
    }
}
