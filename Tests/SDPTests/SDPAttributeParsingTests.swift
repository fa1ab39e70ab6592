import SDP
import Testing

@Suite("Attribute parsing")
struct SDPAttributeParsingTests {
    @Test("a=rid with payload types and restrictions")
    func ridRestrictions() throws {
        let section = try SDPTestText.videoSection(["a=rid:l send pt=96,97;max-width=320;max-height=180", "a=rid:f recv"])
        #expect(
            section.rids == [
                SDPRID(
                    id: "l", direction: .send, payloadTypes: [96, 97],
                    restrictions: [SDPParameter(name: "max-width", value: "320"), SDPParameter(name: "max-height", value: "180")]),
                SDPRID(id: "f", direction: .recv),
            ])
    }

    @Test(
        "a=simulcast with paused streams and alternatives",
        arguments: [
            (
                "send h;~m;l1,l2 recv x",
                SDPSimulcast(
                    send: [
                        [SDPSimulcastStream(rid: "h")], [SDPSimulcastStream(rid: "m", isPaused: true)],
                        [SDPSimulcastStream(rid: "l1"), SDPSimulcastStream(rid: "l2")],
                    ],
                    receive: [[SDPSimulcastStream(rid: "x")]])
            ),
            ("recv 1;2", SDPSimulcast(receive: [[SDPSimulcastStream(rid: "1")], [SDPSimulcastStream(rid: "2")]])),
            (" send rid=a;b", SDPSimulcast(send: [[SDPSimulcastStream(rid: "a")], [SDPSimulcastStream(rid: "b")]])),
            ("send ~a,b", SDPSimulcast(send: [[SDPSimulcastStream(rid: "a", isPaused: true), SDPSimulcastStream(rid: "b")]])),
        ])
    func simulcast(value: String, expected: SDPSimulcast) throws {
        #expect(try SDPTestText.videoSection(["a=simulcast:\(value)"]).simulcast == expected)
    }

    @Test("a=extmap with direction and extension attributes")
    func extmapDirection() throws {
        let section = try SDPTestText.videoSection([
            "a=extmap:5/sendonly urn:example:ext some attributes", "a=extmap:200 urn:example:two-byte",
        ])
        #expect(
            section.extensionMaps == [
                SDPExtensionMap(id: 5, direction: .sendonly, uri: "urn:example:ext", extensionAttributes: "some attributes"),
                SDPExtensionMap(id: 200, uri: "urn:example:two-byte"),
            ])
    }

    @Test("a=rtcp-fb for every payload type")
    func feedbackWildcard() throws {
        let section = try SDPTestText.videoSection(["a=rtcp-fb:* ccm fir", "a=rtcp-fb:96 nack", "a=rtcp-fb:97 goog-remb"])
        #expect(section.feedback[0] == SDPFeedback(payloadType: nil, type: "ccm", parameter: "fir"))
        #expect(section.feedback(for: 96).map(\.feedbackValue) == ["ccm fir", "nack"])
        #expect(section.feedback(for: 97).map(\.feedbackValue) == ["ccm fir", "goog-remb"])
    }

    @Test("a=ssrc values with spaces and a=ssrc-group SIM")
    func ssrcLines() throws {
        let section = try SDPTestText.videoSection([
            "a=ssrc-group:SIM 11 22 33", "a=ssrc:11 msid:stream track", "a=ssrc:11 cname:abc", "a=ssrc:22 x-flag",
        ])
        #expect(section.ssrcGroups == [SDPSSRCGroup(semantics: "SIM", ssrcs: [11, 22, 33])])
        #expect(
            section.ssrcAttributes == [
                SDPSSRCAttribute(ssrc: 11, name: "msid", value: "stream track"),
                SDPSSRCAttribute(ssrc: 11, name: "cname", value: "abc"),
                SDPSSRCAttribute(ssrc: 22, name: "x-flag"),
            ])
        #expect(section.announcedSSRCs == [11, 22])
    }

    @Test("candidates: TCP with extensions, and unreadable ones kept as attributes")
    func candidates() throws {
        let section = try SDPTestText.videoSection([
            "a=candidate:2 1 TCP 1518280447 10.0.0.5 9 typ host tcptype active generation 0",
            "a=candidate:garbage",
        ])
        #expect(
            section.candidates == [
                SDPCandidate(
                    foundation: "2", component: 1, transport: "TCP", priority: 1_518_280_447, address: "10.0.0.5", port: 9,
                    type: "host",
                    extensions: [SDPParameter(name: "tcptype", value: "active"), SDPParameter(name: "generation", value: "0")])
            ])
        #expect(section.otherAttributes == [SDPAttribute(name: "candidate", value: "garbage")])
    }

    @Test("fingerprint algorithm names are lowercased and bytes are read")
    func fingerprint() throws {
        let hex = (1...32).map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }
        let section = try SDPTestText.videoSection(["a=fingerprint:SHA-256 \(hex.joined(separator: ":"))"])
        let fingerprint = try #require(section.transport.fingerprints.first)
        #expect(fingerprint.algorithm == "sha-256")
        #expect(fingerprint.bytes == Array(1...32))
        #expect(fingerprint.matches(SDPFingerprint(algorithm: "sha-256", bytes: Array(1...32))))
        #expect(!fingerprint.matches(SDPFingerprint(algorithm: "sha-256", bytes: Array(2...33))))
    }

    @Test("bandwidth, bundle-only, unknown attributes and unknown lines")
    func tolerated() throws {
        let section = try SDPTestText.videoSection(
            ["i=camera", "b=AS:2500", "b=nonsense", "a=bundle-only", "a=x-google-flag:conference", "a=rtcp-mux:extra"],
            port: "0")
        #expect(section.bandwidths == [SDPBandwidth(type: "AS", value: 2500)])
        #expect(section.isBundleOnly)
        #expect(!section.isRejected)
        #expect(section.isRTCPMultiplexed)
        #expect(section.otherAttributes == [SDPAttribute(name: "x-google-flag", value: "conference")])
    }

    @Test("session-level direction and connection apply to sections without their own")
    func sessionDefaults() throws {
        let text =
            (SDPTestText.sessionLines + [
                "c=IN IP4 203.0.113.1", "a=recvonly", "a=ice-ufrag:sess", "a=ice-pwd:sessionpassword",
                "m=audio 9 UDP/TLS/RTP/SAVPF 111", "a=mid:a", "a=ice-ufrag:media",
                "m=video 9 UDP/TLS/RTP/SAVPF 96", "a=mid:v", "a=sendonly",
            ]).joined(separator: "\n")
        let description = try SessionDescription(parsing: text)
        #expect(description.connection == SDPConnection(address: "203.0.113.1"))
        #expect(description.media.map { description.direction(of: $0) } == [.recvonly, .sendonly])
        let audio = description.transport(of: description.media[0])
        #expect(audio.iceUsernameFragment == "media")
        #expect(audio.icePassword == "sessionpassword")
        #expect(description.transport(of: description.media[1]).iceUsernameFragment == "sess")
    }
}
