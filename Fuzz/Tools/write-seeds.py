#!/usr/bin/env python3
"""Writes PKRelay's fuzzing seed corpus, Fuzz/Corpus/<target>/, from the repository's own test
vectors and fixtures and from packets built here the way the relay's writers build them.

Run from the repository root: python3 Fuzz/Tools/write-seeds.py. Existing seed files with the
same names are overwritten; others are left alone. The dtls seeds need the openssl command.
"""
import base64, binascii, hashlib, hmac, json, os, re, socket, struct, subprocess, sys, time, zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")


def write(target, name, data):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def swift_literals(path):
    """The multi-line string literals `static let NAME = \"\"\"...\"\"\"` of a Swift file, dedented."""
    text = open(os.path.join(ROOT, path)).read()
    found = {}
    for match in re.finditer(r'static let (\w+) = """\n(.*?)\n([ ]*)"""', text, re.S):
        name, body, indent = match.groups()
        if "\\(" in body:
            continue
        found[name] = "\n".join(line[len(indent):] for line in body.split("\n"))
    return found


def swift_byte_cases(path):
    """The `.init("name", [bytes] + constant, bool)` payloads of each `static let NAMECases` list of
    the keyframe detector tests."""
    text = open(os.path.join(ROOT, path)).read()
    constants = {name: eval(body) for name, body in re.findall(r"static let (\w+): \[UInt8\] = (\[[^\]]*\])", text)}
    groups = {}
    for group, body in re.findall(r"static let (\w+)Cases: \[KeyframeDetectionCase\] = \[(.*?)\n    \]", text, re.S):
        groups[group] = [eval(expression.replace("\n", " "), {}, dict(constants))
                         for expression in re.findall(r'\.init\("[^"]+",\s*(.*?),\s*(?:true|false)\)', body, re.S)]
    return groups


# RTP: headers as RTPHeaderWriter writes them, with CSRCs, RFC 8285 extensions, padding.
def rtp(marker=False, pt=96, seq=1000, ts=90000, ssrc=0x11223344, csrcs=(), extension=None, payload=b"", padding=0):
    first = 0x80 | (0x20 if padding else 0) | (0x10 if extension else 0) | len(csrcs)
    packet = struct.pack("!BBHII", first, (0x80 if marker else 0) | pt, seq, ts, ssrc)
    packet += b"".join(struct.pack("!I", c) for c in csrcs)
    if extension:
        profile, body = extension
        body += b"\0" * (-len(body) % 4)
        packet += struct.pack("!HH", profile, len(body) // 4) + body
    packet += payload
    if padding:
        packet += b"\0" * (padding - 1) + bytes([padding])
    return packet


VP8_KEYFRAME = bytes([0x90, 0xE0, 0x81, 0x23, 0x07, 0x50, 0x42, 0x00, 0x9D, 0x01, 0x2A, 0x80, 0x02, 0xE0, 0x01])
one_byte = (0xBEDE, bytes([0x10, 0x85, 0x41, 0x30]))  # audio level id 1 (voice, -5 dBov), mid id 4 "0"
two_byte = (0x1000, bytes([0x03, 0x02, 0x61, 0x62, 0x00, 0x0A, 0x01, 0x7F]))
write("rtp", "minimal", rtp())
write("rtp", "vp8-keyframe-marker", rtp(marker=True, payload=VP8_KEYFRAME))
write("rtp", "csrcs", rtp(csrcs=(1, 2, 3), payload=b"\x01\x02"))
write("rtp", "one-byte-extensions", rtp(pt=111, extension=one_byte, payload=b"\xfc\xff\xfe"))
write("rtp", "two-byte-extensions", rtp(extension=two_byte, payload=b"\x10\x00"))
write("rtp", "padding", rtp(payload=b"\x10\x00\x01", padding=4))
write("rtp", "rtx-wrapped", rtp(pt=97, seq=7, ssrc=0x55667788, extension=one_byte, payload=struct.pack("!H", 1234) + VP8_KEYFRAME))
write("rtp", "rtx-padding-probe", rtp(pt=97, seq=8, payload=b"", padding=200))
write("rtp", "other-extension-profile", rtp(extension=(0xABCD, b"\x01\x02\x03\x04"), payload=b"\x00"))

# srtp: a script (window byte, then steps of SSRC, signed sequence move, action), see FuzzTarget+SRTP.swift.
def srtp_step(stream, move, action):
    return bytes([stream, (move >> 8) & 0xFF, move & 0xFF, action])
write("srtp", "runs-and-wrap", bytes([4]) + b"".join(srtp_step(1, 1, 0) for _ in range(40)))
write("srtp", "every-action", bytes([0]) + b"".join(srtp_step(i % 4, 1, a) for i in range(30) for a in range(6)))
write("srtp", "jumps", bytes([2]) + b"".join(srtp_step(1, m & 0xFFFF, a) for m, a in
                                              [(1, 0), (34000, 0), (1, 0), (-3000, 0), (1, 5), (2, 1), (40, 2), (1, 3), (1, 4)]))

# RTCP: each packet RTCPWriter writes, plus what browsers send (SDES, REMB, TWCC, BYE with reason).
def rtcp(count, packet_type, body, padding=0):
    body += b"\0" * (-len(body) % 4)
    if padding:
        body += b"\0" * (padding - 1) + bytes([padding])
    return struct.pack("!BBH", 0x80 | (0x20 if padding else 0) | count, packet_type, (len(body) + 4) // 4 - 1) + body


block = struct.pack("!IBBHIIII", 0x11223344, 25, 0, 17, 0x0001_0400, 30, 0x12345678, 0x00010000)
sr = rtcp(1, 200, struct.pack("!IQIII", 0xAABBCCDD, 0xE8_0000_0000_0000_00, 90000, 100, 12000) + block)
rr = rtcp(1, 201, struct.pack("!I", 0xAABBCCDD) + block)
sdes = rtcp(1, 202, struct.pack("!IBB", 0xAABBCCDD, 1, 10) + b"relay-7f3a" + b"\0\0")
nack = rtcp(1, 205, struct.pack("!IIHH", 1, 0x11223344, 1000, 0b1010_0000_0000_0001))
pli = rtcp(1, 206, struct.pack("!II", 1, 0x11223344))
fir = rtcp(4, 206, struct.pack("!IIIB3x", 1, 0, 0x11223344, 7))
remb = rtcp(15, 206, struct.pack("!II", 1, 0) + b"REMB" + bytes([1, 0x0B, 0xD4, 0x35]) + struct.pack("!I", 0x11223344))
twcc = rtcp(15, 205, struct.pack("!IIHHIBB", 1, 0x11223344, 100, 3, 0x00012C00, 0, 0) + bytes([0x20, 0x03, 0x04, 0x08, 0x0C]))
bye = rtcp(1, 203, struct.pack("!I", 0x11223344) + bytes([5]) + b"gone!")
app = rtcp(0, 204, struct.pack("!I", 1) + b"PKRL" + b"\x00\x01\x02\x03")
write("rtcp", "sender-report", sr)
write("rtcp", "receiver-report", rr)
write("rtcp", "compound-sr-sdes", sr + sdes)
write("rtcp", "compound-rr-nack-pli", rr + nack + pli)
write("rtcp", "fir", fir)
write("rtcp", "remb", rr + remb)
write("rtcp", "twcc", twcc)
write("rtcp", "goodbye-with-reason", rr + bye)
write("rtcp", "app-and-padding", app + rtcp(0, 201, struct.pack("!I", 9), padding=8))
write("rtcp", "empty-receiver-report", rtcp(0, 201, struct.pack("!I", 0xAABBCCDD)))

# STUN: mode byte 0 (raw) with the RFC 5769 samples; mode 1 (attributes signed by the target).
vectors = open(os.path.join(ROOT, "Tests/STUNTestVectors/STUNTestVectors.swift")).read()
for name, hexes in re.findall(r'public static let (\w+) = bytes\(hex: """\n(.*?)"""', vectors, re.S):
    write("stun", "rfc5769-" + name, b"\x00" + bytes.fromhex("".join(hexes.split())))

PASSWORD = b"VOkJxbRl1RmTxUk/WvJxBt"


def stun_request(attributes, transaction=b"\x01" * 12, sign=True, fingerprint=True):
    body = b""
    for kind, value in attributes:
        body += struct.pack("!HH", kind, len(value)) + value + b"\0" * (-len(value) % 4)
    if sign:
        header = struct.pack("!HHI", 0x0001, len(body) + 24, 0x2112A442) + transaction
        body += struct.pack("!HH", 0x0008, 20) + hmac.new(PASSWORD, header + body, hashlib.sha1).digest()
    if fingerprint:
        header = struct.pack("!HHI", 0x0001, len(body) + 8, 0x2112A442) + transaction
        crc = (zlib.crc32(header + body) & 0xFFFFFFFF) ^ 0x5354554E
        body += struct.pack("!HHI", 0x8028, 4, crc)
    return struct.pack("!HHI", 0x0001, len(body), 0x2112A442) + transaction + body


username = (0x0006, b"evtj:h6vY")
write("stun", "signed-use-candidate", b"\x00" + stun_request([username, (0x0024, struct.pack("!I", 0x6E0001FF)), (0x802A, b"\x93\x2f\xf9\xb1\x51\x26\x3b\x36"), (0x0025, b"")]))
write("stun", "signed-ipv6-source", b"\x02" + stun_request([username, (0x0024, struct.pack("!I", 1))]))
write("stun", "unknown-comprehension-required", b"\x00" + stun_request([username, (0x0031, b"\x00\x00\x00\x01")]))
write("stun", "wrong-password", b"\x00" + stun_request([(0x0006, b"evtj:peer")], transaction=b"\x02" * 12)[:-32] + b"\0" * 32)
write("stun", "no-fingerprint", b"\x00" + stun_request([username], fingerprint=False))
# Mode 1: type (2 bytes), length (1 byte), value; the target adds USERNAME, MESSAGE-INTEGRITY, FINGERPRINT.
attribute_list = lambda items: b"".join(struct.pack("!HB", k, len(v)) + v for k, v in items)
write("stun", "target-signed-priority-use-candidate", b"\x01" + b"\x01" * 12 + attribute_list([(0x0024, b"\x6e\x00\x01\xff"), (0x0025, b""), (0x802A, b"\x00" * 8)]))
write("stun", "target-signed-ice-controlled", b"\x01" + b"\x02" * 12 + attribute_list([(0x8029, b"\x00" * 8)]))
write("stun", "target-signed-no-username", b"\x09" + b"\x03" * 12 + attribute_list([(0x8022, b"pkrelay fuzz")]))

# SDP: the offers and answers of the SDP tests (Chromium, Chromium simulcast, Firefox, aiortc).
literals = swift_literals("Tests/SDPTests/SDPFixtures.swift")
literals.update(swift_literals("Tests/SDPTests/SubscriptionFixtures.swift"))
for name, text in literals.items():
    write("sdp", name + ".sdp", text + "\n")
write("sdp", "chromiumOffer-crlf.sdp", literals["chromiumOffer"].replace("\n", "\r\n") + "\r\n")

# Codecs: the keyframe detector tests' payloads, each as length, generation, bytes.
groups = swift_byte_cases("Tests/StreamCoreTests/KeyframeDetectorTests.swift")
for group, payloads in groups.items():
    write("codecs", group + "-detector-cases", b"".join(bytes([len(p), i % 3]) + bytes(p) for i, p in enumerate(payloads)))
pictures = b"".join(bytes([6 + 5, generation]) + bytes([0x90, 0xC0, 0x80 | (picture >> 8), picture & 0xFF, tl0]) + b"\x31\x0B\x00\x11\x22\x33"
                    for generation, picture, tl0 in [(0, 100, 7), (0, 101, 7), (1, 9000, 200), (1, 9001, 201), (0, 102, 8)])
write("codecs", "vp8-layer-switches", pictures)
# H.264 sequence parameter sets (the frame-size reader's tests), alone and in a STAP-A with a PPS.
sps_hex = re.findall(r'\("(67[0-9a-f]+)", \d+, \d+\)', open("Tests/StreamCoreTests/KeyframeDetectorTests+FrameSize.swift").read())
pps = bytes([0x68, 0xEB, 0xE3, 0xCB, 0x22, 0xC0])
units = [bytes.fromhex(h) for h in sps_hex]
stap = [b"\x78" + struct.pack("!H", len(u)) + u + struct.pack("!H", len(pps)) + pps for u in units]
write("codecs", "h264-parameter-sets", b"".join(bytes([len(p), 0]) + p for p in units + stap))

# Tokens: mode 0 token text signed with the development key; mode 1 claims JSON.
DEV_KEY = b"pkrelay-development-key-not-secret-do-not-deploy"
b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(claims, kid="dev", key=DEV_KEY):
    header = json.dumps({"alg": "HS256", "kid": kid, "typ": "JWT"}, separators=(",", ":"), sort_keys=True).encode()
    signing = b64(header) + "." + b64(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode())
    return signing + "." + b64(hmac.new(key, signing.encode(), hashlib.sha256).digest())


NOW = 1_700_000_000
write("token", "valid", b"\x00" + token({"sub": "alice", "room": "r1", "exp": NOW + 3600}).encode())
write("token", "valid-grants", b"\x00" + token({"sub": "bob", "room": "r1", "exp": NOW + 60, "nbf": NOW - 10, "iat": NOW, "grants": {"publish": False, "hidden": True, "publishExpiresAt": NOW + 30}}).encode())
write("token", "expired", b"\x00" + token({"sub": "alice", "room": "r1", "exp": NOW - 60}).encode())
write("token", "wrong-key", b"\x00" + token({"sub": "alice", "room": "r1", "exp": NOW + 60}, key=b"x" * 32).encode())
write("token", "unknown-kid", b"\x00" + token({"sub": "alice", "room": "r1", "exp": NOW + 60}, kid="main").encode())
write("token", "alg-none", b"\x00" + (b64(b'{"alg":"none"}') + "." + b64(b'{"sub":"a","exp":1}') + ".").encode())
write("token", "claims-full", b"\x01" + json.dumps({"sub": "carol", "room": "pk-a", "exp": NOW + 3600, "nbf": NOW, "iat": NOW, "grants": {"publish": True, "subscribe": True, "forward": False, "hidden": False, "admin": True, "publishExpiresAt": NOW + 600}}).encode())
write("token", "claims-roomless", b"\x01" + b'{"sub":"admin","exp":1700003600,"grants":{"admin":true}}')
write("token", "claims-times-at-limits", b"\x01" + b'{"sub":"x","room":"r","exp":253402300799,"nbf":-9223372036854775808,"iat":9223372036854775807}')
write("token", "claims-empty-user", b"\x01" + b'{"sub":"","room":"r","exp":1700003600}')
write("token", "claims-no-kid", b"\x03" + b'{"sub":"x","room":"r","exp":1700003600}')

# Configuration: the documented sample, a small file with overrides, and environment lines.
write("config", "pkrelay.yaml", open(os.path.join(ROOT, "Config/pkrelay.yaml"), "rb").read())
write("config", "small-with-environment", "control:\n  port: 7800\nmedia:\n  threads: 2\n  portRangeStart: 41000\n  portRangeEnd: 41999\nwebhooks:\n  urls: [http://10.0.0.5:8080/pkrelay]\n  secret: \"0123456789abcdef0123456789abcdef\"\n\0PKRELAY_MEDIA_THREADS=4\nPKRELAY_CONTROL_MAX_MESSAGE_BYTES=2048\nHOME=/root\n")
write("config", "keys", "auth:\n  keys:\n    - id: main\n      secret: \"a-secret-of-at-least-thirty-two-bytes!!\"\n    - {id: old, secret: \"another-secret-of-thirty-two-bytes!!\"}\n  leewaySeconds: 10\n")
write("config", "bad-values", "control:\n  port: 99999\nmedia: [1, 2]\nunknown: {a: 1}\n")
write("config", "empty", "")

# Control: scripts (see ControlFuzzScript): a/b/c send, A/B/C reconnect, t advances time, * admin, ~ drain.
join = lambda session, request, room, user, extra="": f'{session}{{"id":{request},"method":"joinRoom","params":{{"roomId":"{room}","userId":"{user}","token":"$token({room},{user})"{extra}}}}}'
scripts = {
    "join-publish-subscribe": [
        join("a", 1, "r1", "u1"),
        'a{"id":2,"method":"createTransport","params":{"srtpProfile":"AES_CM_128_HMAC_SHA1_80"}}',
        'a{"id":3,"method":"connectTransport","params":{"transportId":1,"ip":"127.0.0.1","port":52000,"srtpKey":"obONdsOl+rBrfw2T5eZku7rjeDMI4aRZPj23Knlt"}}',
        'a{"id":4,"method":"publishStream","params":{"roomId":"r1","transportId":1,"tracks":[{"kind":"video","ssrc":1111,"payloadType":96,"codec":"VP8","clockRate":90000},{"kind":"audio","ssrc":2222,"payloadType":111,"codec":"opus","clockRate":48000,"channels":2}]}}',
        'b{"id":1,"method":"createTransport","params":{}}',
        join("b", 2, "r1", "u2", ',"role":"audience","visible":false,"roomConfig":{"subscribeTransportId":2}'),
        'b{"id":3,"method":"subscribeStream","params":{"roomId":"r1","userId":"u1","mediaType":3,"transportId":2}}',
        'b{"id":4,"method":"getStats","params":{}}',
        "t1500",
        'a{"id":5,"method":"unpublishStream","params":{"roomId":"r1","streamIndex":"main"}}',
        'b{"id":5,"method":"leaveRoom","params":{"roomId":"r1"}}',
    ],
    "forward-empty-target-webhooks": [
        join("a", 1, "r1", "u1"),
        'a{"id":2,"method":"startForwardStreamToRooms","params":{"roomId":"r1","targets":[{"roomId":"","token":"x"},{"roomId":"bad room/../x","token":"x"}]}}',
        'a{"id":3,"method":"startForwardStreamToRooms","params":{"roomId":"r1","targets":[{"roomId":"r2","token":"$token(r2,u1)"}]}}',
        'a{"id":4,"method":"updateForwardStreamToRooms","params":{"roomId":"r1","targets":[{"roomId":"r2","token":"$token(r2,u1)"},{"roomId":"","token":"x"}]}}',
        'a{"id":5,"method":"pauseForwardStreamToAllRooms","params":{"roomId":"r1"}}',
        'a{"id":6,"method":"resumeForwardStreamToAllRooms","params":{"roomId":"r1"}}',
        'a{"id":7,"method":"stopForwardStreamToRooms","params":{"roomId":"r1"}}',
    ],
    "pk-link-and-invitation": [
        join("a", 1, "pk-a", "anchor-a"),
        join("b", 1, "pk-b", "anchor-b"),
        'a{"id":2,"method":"connectOtherRoom","params":{"roomId":"pk-b","userId":"anchor-b","localRoomId":"pk-a"}}',
        'a{"id":3,"method":"updateOtherRoomForwardMode","params":{"roomId":"pk-b","userId":"anchor-b","muteAudio":true,"localRoomId":"pk-a"}}',
        'a{"id":4,"method":"disconnectOtherRoom","params":{"roomId":"pk-b","userId":"anchor-b","localRoomId":"pk-a"}}',
        'a{"id":5,"method":"invite","params":{"roomId":"pk-b","userId":"anchor-b","localRoomId":"pk-a","payload":"pk?","timeoutSeconds":10,"autoLink":true}}',
        'b{"id":2,"method":"acceptInvitation","params":{"inviteId":"inv-1","payload":"ok"}}',
        'a{"id":6,"method":"sendRoomMessage","params":{"roomId":"pk-a","message":"hello","toLinkedRooms":true}}',
        'b{"id":3,"method":"sendUserMessage","params":{"roomId":"pk-b","userId":"anchor-a","binary":"aGk="}}',
        'a{"id":7,"method":"invite","params":{"roomId":"pk-b","userId":"anchor-b","localRoomId":"pk-a","timeoutSeconds":5}}',
        'b{"id":4,"method":"rejectInvitation","params":{"inviteId":"inv-2","reason":"busy"}}',
        'a{"id":8,"method":"invite","params":{"roomId":"pk-b","userId":"anchor-b","localRoomId":"pk-a"}}',
        'a{"id":9,"method":"cancelInvitation","params":{"inviteId":"inv-3"}}',
        "t5000",
        "*rooms",
        "*room pk-a",
        "*stop pk-a anchor-a",
    ],
    "roles-visibility-tokens": [
        join("a", 1, "r1", "u1"),
        join("c", 1, "r1", "u3", ',"role":"audience"'),
        'c{"id":2,"method":"switchRole","params":{"roomId":"r1","role":"anchor"}}',
        'c{"id":3,"method":"setUserVisibility","params":{"roomId":"r1","visible":false}}',
        'a{"id":2,"method":"updateToken","params":{"roomId":"r1","token":"$token(r1,u1)"}}',
        'a{"id":3,"method":"enableAudioPropertiesReport","params":{"roomId":"r1","intervalMs":1000,"topN":3}}',
        'a{"id":4,"method":"setRemoteVideoStreamType","params":{"roomId":"r1","userId":"u3","streamType":1}}',
        "t3600000",
        "t30000",
        "*kick r1 u3",
        "*dismiss r1 maintenance",
    ],
    "layer-allocation-settings": [
        join("a", 1, "r1", "u1"),
        'a{"id":2,"method":"createTransport","params":{"srtpProfile":"AEAD_AES_128_GCM"}}',
        'a{"id":3,"method":"publishStream","params":{"roomId":"r1","transportId":1,"tracks":[{"kind":"video","ssrc":1111,"payloadType":96,"codec":"VP8","clockRate":90000},{"kind":"video","ssrc":1112,"payloadType":96,"codec":"VP8","clockRate":90000,"videoStreamType":2},{"kind":"video","ssrc":1113,"payloadType":96,"codec":"VP8","clockRate":90000,"videoStreamType":1}]}}',
        'b{"id":1,"method":"setSubscribeFallbackOption","params":{"option":2}}',
        'b{"id":2,"method":"createTransport","params":{}}',
        join("b", 3, "r1", "u2", ',"role":"audience","visible":false,"roomConfig":{"subscribeTransportId":2}'),
        'b{"id":4,"method":"setRemoteUserPriority","params":{"roomId":"r1","userId":"u1","priority":200}}',
        'b{"id":5,"method":"setRemoteVideoStreamType","params":{"roomId":"r1","userId":"u1","streamType":2}}',
        "t1500",
        'b{"id":6,"method":"setSubscribeFallbackOption","params":{"option":0}}',
        'b{"id":7,"method":"getStats","params":{}}',
        'b{"id":8,"method":"setRemoteVideoConfig","params":{"roomId":"r1","userId":"u1","width":320,"height":180}}',
        'b{"id":9,"method":"setRemoteVideoConfig","params":{"roomId":"r1","userId":"u1","streamIndex":"screen","width":0,"height":0,"framerate":15}}',
    ],
    "webrtc-publish-and-subscribe": [
        join("a", 1, "r1", "u1"),
        'a{"id":2,"method":"createTransport","params":{"kind":"webrtc"}}',
        'a{"id":3,"method":"publishStream","params":{"roomId":"r1","streamIndex":"main","transportId":1,"sdp":' + json.dumps(literals["chromiumOffer"]) + '}}',
        join("b", 1, "r1", "u2", ',"role":"audience"'),
        'b{"id":2,"method":"createTransport","params":{"kind":"webrtc"}}',
        'b{"id":3,"method":"subscribeStream","params":{"roomId":"r1","userId":"u1","mediaType":3,"transportId":2}}',
        'b{"id":4,"method":"answerTransportOffer","params":{"transportId":2,"revision":1,"sdp":' + json.dumps(literals["chromiumAnswer"]) + '}}',
        "t31000",
        'a{"id":4,"method":"closeTransport","params":{"transportId":1}}',
    ],
    "bad-framing": [
        'a{"id":1}',
        'a{"id":2,"method":"fly","params":{}}',
        'a{"id":"a-3","method":"leaveRoom","params":[]}',
        'a{"id":1.5,"method":"getStats"}',
        'a{"id":4,"method":"joinRoom","params":{"roomId":"r1"}}',
        "anot json",
        "!a",
        'b[1,2,3]',
        "A",
        join("a", 5, "r1", "u1"),
        join("b", 1, "r1", "u1"),
        "~",
        join("c", 1, "r1", "u9"),
    ],
}
for name, lines in scripts.items():
    write("control", name, "\n".join(lines) + "\n")


# media: a room (shape byte, subscriber kinds byte), then steps (see FuzzTarget+Media.swift and
# MediaFuzzScript.swift): 0 RTP (stream, sequence step, timestamp step, flags, filler), 3 raw, 4 sender
# report, 5 subscriber RTCP, 6 read the batch, 7 change, 8 advance the clock, 9 a stranger's RTP.
def media_rtp(stream, keyframe=False, marker=False, size_index=9, extension=False, padding=False, step=1, ts_step=0, filler=0x41):
    flags = (1 if marker else 0) | (2 if keyframe else 0) | (4 if extension else 0) | (8 if padding else 0) | (size_index << 4)
    return bytes([0, stream, step & 0xFF, ts_step, flags, filler])


def media_frame(stream, packets, keyframe=False, size_index=10):
    """One frame: equal-size packets, a keyframe prefix on the first, the marker on the last."""
    steps = b""
    for index in range(packets):
        steps += media_rtp(stream, keyframe=keyframe and index == 0, marker=index == packets - 1,
                           size_index=size_index if index < packets - 1 else 7, ts_step=30 if index == 0 else 0)
    return steps


media_audio = lambda: media_rtp(2, size_index=2, ts_step=10, extension=True)
media_read, media_nack = b"\x06", lambda subscriber, back: bytes([5, subscriber, 0, back, 0])
media_pli = lambda subscriber: bytes([5, subscriber, 1, 0, 0])
media_change = lambda kind, subscriber, argument: bytes([7, kind, subscriber, argument])
media_advance = lambda index: bytes([8, index])


def write_media(name, data):
    """A media script, for the media target and for the shards target (the same script with
    odd subscribers on a second shard)."""
    write("media", name, data)
    write("shards", name, data)


write_media("vp8-two-plain-subscribers",
      bytes([0x01, 0x00]) + media_frame(0, 6, keyframe=True) + media_frame(1, 2, keyframe=True) + media_audio() + media_read
      + media_frame(0, 12) + media_audio() + media_frame(1, 3) + media_read + media_nack(0, 3) + media_pli(1)
      + media_change(0, 0, 0) + media_frame(0, 9) + media_frame(1, 2, keyframe=True) + media_advance(6) + media_frame(0, 4))
write_media("every-subscriber-kind-rtx-padding-srtp-publisher",
      bytes([0x8F | 0x40, 0b11100100]) + media_frame(0, 8, keyframe=True) + media_frame(1, 2, keyframe=True) + media_audio()
      + media_read + media_frame(0, 10) + media_rtp(0, step=3) + media_frame(0, 3) + media_read + media_advance(2)
      + media_nack(1, 2) + media_nack(2, 5) + bytes([0, 3, 1, 0, 0x90, 4]) + media_read + media_advance(6)
      + bytes([4, 0]) + media_pli(3) + media_advance(5) + media_frame(0, 7, keyframe=True))
write_media("h264-churn",
      bytes([0x22, 0b00011011]) + media_frame(0, 5, keyframe=True) + media_frame(1, 2, keyframe=True) + media_read
      + media_change(3, 1, 0) + media_frame(0, 5) + media_change(3, 1, 0) + media_change(4, 0, 1) + media_frame(1, 3)
      + media_change(4, 0, 1) + media_change(7, 2, 0) + media_change(6, 0, 0) + media_frame(0, 5) + media_change(5, 0, 0)
      + media_advance(4) + media_frame(0, 4, keyframe=True) + bytes([9, 0, 1, 0, 0x90, 7]) + bytes([3, 4]) + bytes(range(24))
      + media_change(1, 0, 0) + media_frame(0, 3) + media_change(2, 0, 2) + media_frame(1, 3, keyframe=True) + media_advance(7))

# A stray far from the stream (sequence step 120: alone), then the last number again with other
# bytes, NACKs for it, and later a restarted sender (step 124: for good). The publisher sends
# plain RTP: an SRTP one's repeat would not pass the relay's replay check.
write_media("stray-repeat-and-restart",
      bytes([0x8F, 0b11100100]) + media_frame(0, 6, keyframe=True) + media_frame(1, 2, keyframe=True) + media_read
      + media_frame(0, 4) + media_rtp(0, step=120) + media_rtp(0, step=0, size_index=5, filler=0x77) + media_read
      + media_nack(1, 1) + media_nack(2, 1) + media_nack(3, 1) + media_read + media_frame(0, 3)
      + media_rtp(0, step=124) + media_frame(0, 4) + media_read + media_nack(2, 2) + media_read)

# DTLS: a client's first flight (a ClientHello), captured from openssl, as the server sees it;
# and a server's first flight, for the target's client mode.
def capture_dtls():
    listener = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    listener.bind(("127.0.0.1", 0))
    listener.settimeout(5)
    port = listener.getsockname()[1]
    client = subprocess.Popen(["openssl", "s_client", "-dtls1_2", "-connect", f"127.0.0.1:{port}", "-quiet"],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        hello, _ = listener.recvfrom(4096)
    finally:
        client.kill()
        listener.close()
    return hello


try:
    hello = capture_dtls()
    framed = lambda *datagrams: b"".join(struct.pack("!H", len(d)) + d for d in datagrams)
    write("dtls", "server-client-hello", b"\x00" + framed(hello))
    write("dtls", "server-client-hello-twice", b"\x00" + framed(hello, hello))
    short_epoch1 = bytes([23, 0xFE, 0xFD, 0x00, 0x01]) + b"\0" * 6 + struct.pack("!H", 8) + b"\0" * 8
    write("dtls", "server-short-protected-record", b"\x00" + framed(short_epoch1 + hello))
    write("dtls", "client-mixed-datagrams", b"\x01" + framed(hello, b"\x00\x01\x00\x00" + b"\0" * 16, b"\x80\x60" + b"\0" * 10))
except (OSError, subprocess.SubprocessError) as error:
    print(f"dtls seeds skipped: {error}", file=sys.stderr)


# Dictionaries (libFuzzer -dict): words the fuzzer would take long to guess.
def dictionary(target, comment, words):
    def quoted(word):
        escaped = "".join(c if 32 <= ord(c) < 127 and c not in '\\"' else ("\\" + c if c in '\\"' else "\\x%02X" % ord(c)) for c in word)
        return '"' + escaped + '"'
    directory = os.path.join(ROOT, "Fuzz", "Dictionaries")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, target + ".dict"), "w") as f:
        f.write("# " + comment + "\n" + "\n".join(quoted(w) for w in words) + "\n")


protocol = os.path.join(ROOT, "Sources", "Protocol")
methods = re.findall(r"case (\w+)", open(os.path.join(protocol, "Method.swift")).read())
parameter_keys = set()
for name in os.listdir(protocol):
    if name.endswith("Params.swift") or name in ("TrackDescription.swift", "RoomConfig.swift"):
        parameter_keys.update(re.findall(r"public var (\w+)", open(os.path.join(protocol, name)).read()))
dictionary("control", "Control-channel methods, parameter keys and script steps.",
           sorted(methods) + ['"%s":' % k for k in sorted(parameter_keys)]
           + ['"id":', '"method":', '"params":', "$token(r1,u1)", "$token(r2,u2)", "\nt1000\n", "\nA\n", "\n~\n", "\n*rooms\n",
              '"webrtc"', '"srtp"', '"anchor"', '"audience"', '"main"', '"VP8"', '"H264"', '"opus"', "AEAD_AES_128_GCM",
              "AES_CM_128_HMAC_SHA1_80", "null", "true", "false", "[]", "{}"])
dictionary("sdp", "SDP line types and the attributes the negotiation reads.", [
    "v=0", "o=- ", "s=-", "t=0 0", "c=IN IP4 ", "b=AS:", "m=audio 9 UDP/TLS/RTP/SAVPF ", "m=video 9 UDP/TLS/RTP/SAVPF ",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "a=group:BUNDLE ", "a=msid-semantic: WMS", "a=ice-ufrag:", "a=ice-pwd:",
    "a=ice-options:trickle", "a=ice-lite", "a=fingerprint:sha-256 ", "a=setup:actpass", "a=setup:active", "a=setup:passive", "a=mid:",
    "a=extmap:", "a=extmap-allow-mixed", "a=sendonly", "a=recvonly", "a=sendrecv", "a=inactive", "a=msid:", "a=rtcp-mux", "a=rtcp-rsize",
    "a=rtpmap:", "a=fmtp:", "a=rtcp-fb:", "a=ssrc:", "a=ssrc-group:FID ", "a=rid:", "a=simulcast:send ", "a=candidate:",
    "a=end-of-candidates", "opus/48000/2", "VP8/90000", "VP9/90000", "H264/90000", "AV1/90000", "rtx/90000", "apt=",
    "profile-level-id=42e01f", "packetization-mode=1", "level-asymmetry-allowed=1", "nack", "nack pli", "ccm fir", "goog-remb",
    "transport-cc", "urn:ietf:params:rtp-hdrext:sdes:mid", "urn:ietf:params:rtp-hdrext:ssrc-audio-level",
    "urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id", "urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id", "\r\n"])
sample = open(os.path.join(ROOT, "Config", "pkrelay.yaml")).read()
dictionary("config", "Configuration keys and YAML syntax.",
           [k + ":" for k in sorted(set(re.findall(r"^\s*([A-Za-z][A-Za-z0-9]*):", sample, re.M)))]
           + ["PKRELAY_", "\0PKRELAY_MEDIA_THREADS=", "\0PKRELAY_WEBHOOKS_URLS=", "\0PKRELAY_AUTH_KEYS=", "- ", "true", "null", "~",
              "&a ", "*a", "!!str ", "0x", "1e9"])
dictionary("token", "Token claims.", ['"sub":', '"room":', '"exp":', '"nbf":', '"iat":', '"grants":', '"publish":', '"subscribe":',
                                      '"forward":', '"hidden":', '"admin":', '"publishExpiresAt":', "1700000000", "253402300799",
                                      "-9223372036854775808", '"alg":"HS256"', '"kid":"dev"', "eyJ"])
