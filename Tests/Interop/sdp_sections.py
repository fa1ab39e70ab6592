"""Just enough SDP handling for the interop peer: reading m-sections, and the rewrites the
self-test and the --mend-stopped-sections workaround need. aiortc does the real parsing.
"""


def media_sections(sdp):
    """Per m-line, in order: kind, port, payloadTypes, mid, direction, msid, cname, rtpmap
    (payload type -> encoding name) and owner.

    owner is the user a relay offer says the track belongs to: the stream id of a=msid (the
    relay writes "<userId> <trackId>"), else the cname of the a=ssrc lines (also the userId).
    """
    sections = []
    current = None
    for line in sdp.splitlines():
        line = line.strip()
        if line.startswith("m="):
            fields = line[2:].split()
            current = {
                "kind": fields[0],
                "port": int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else None,
                "payloadTypes": fields[3:],
                "mid": None,
                "direction": "sendrecv",
                "msid": None,
                "cname": None,
                "rtpmap": {},
            }
            sections.append(current)
        elif current is None:
            continue
        elif line.startswith("a=mid:"):
            current["mid"] = line[len("a=mid:") :]
        elif line.startswith("a=msid:"):
            current["msid"] = line[len("a=msid:") :].split()
        elif line.startswith("a=ssrc:") and " cname:" in line and current["cname"] is None:
            current["cname"] = line.split(" cname:", 1)[1]
        elif line.startswith("a=rtpmap:"):
            payload_type, _, encoding = line[len("a=rtpmap:") :].partition(" ")
            current["rtpmap"][payload_type] = encoding.split("/")[0]
        elif line[2:] in ("sendrecv", "sendonly", "recvonly", "inactive"):
            current["direction"] = line[2:]
    for section in sections:
        stream_id = section["msid"][0] if section["msid"] else None
        section["owner"] = stream_id if stream_id and stream_id != "-" else section["cname"]
    return sections


def first_codec(sdp, kind):
    """The codec name of the first payload type of the first `kind` m-line (the one in use)."""
    for section in media_sections(sdp):
        if section["kind"] == kind and section["port"] and section["payloadTypes"]:
            return section["rtpmap"].get(section["payloadTypes"][0])
    return None


def imitate_relay_offer(sdp, user_id):
    """Rewrite an aiortc offer's msid and cname the way the relay writes them.

    The self-test uses it so that publisher attribution is exercised as against the relay.
    """
    lines = []
    kind = None
    for line in sdp.splitlines():
        if line.startswith("m="):
            kind = line[2:].split()[0]
        if line.startswith("a=msid:") and kind is not None:
            line = f"a=msid:{user_id} {user_id}-{kind}"
        elif line.startswith("a=ssrc:") and " cname:" in line:
            line = line.split(" cname:", 1)[0] + f" cname:{user_id}"
        lines.append(line)
    return "\r\n".join(lines) + "\r\n"


def split_sections(sdp):
    """The session part and the m-sections of an SDP, each as a list of lines."""
    parts = [[]]
    for line in sdp.splitlines():
        if line.startswith("m="):
            parts.append([])
        parts[-1].append(line)
    return parts[0], parts[1:]


def join_sections(session, sections):
    return "\r\n".join(session + [line for section in sections for line in section]) + "\r\n"


# Attributes aiortc 1.16 insists on in every audio/video section, stopped ones included.
TRANSPORT_ATTRIBUTES = ("a=ice-ufrag:", "a=ice-pwd:", "a=fingerprint:", "a=setup:")


def mend_stopped_offer(sdp):
    """Give the stopped (port 0) sections of an offer the transport attributes aiortc requires.

    aiortc refuses a section without ICE credentials or rtcp-mux even when its port is 0, so
    they are copied from the first live section. Only used with --mend-stopped-sections.
    """
    session, sections = split_sections(sdp)
    donor = next((s for s in sections if s[0].split()[1] != "0"), None)
    if donor is None:
        return sdp
    borrowed = [line for line in donor if line.startswith(TRANSPORT_ATTRIBUTES)]
    for section in sections:
        if section[0].split()[1] == "0":
            missing = [line for line in borrowed if line.split(":")[0] not in
                       {existing.split(":")[0] for existing in section}]
            if "a=rtcp-mux" not in section:
                missing.append("a=rtcp-mux")
            section[1:1] = missing
    return join_sections(session, sections)


def mend_stopped_answer(answer, offer):
    """Answer port 0 for the sections the offer stopped (RFC 3264, section 8.2).

    aiortc answers them with its live port and a=inactive instead.
    """
    stopped = {m["mid"] for m in media_sections(offer) if m["port"] == 0}
    session, sections = split_sections(answer)
    for section in sections:
        mid = next((line[len("a=mid:"):] for line in section if line.startswith("a=mid:")), None)
        if mid in stopped:
            fields = section[0].split()
            fields[1] = "0"
            section[0] = " ".join(fields)
    for index, line in enumerate(session):
        if line.startswith("a=group:BUNDLE"):
            mids = [m for m in line.split()[1:] if m not in stopped]
            session[index] = " ".join(["a=group:BUNDLE"] + mids)
    return join_sections(session, sections)
