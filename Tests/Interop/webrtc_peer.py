#!/usr/bin/env python3
"""A WebRTC peer (aiortc) that publishes to or receives from PKRelay, for interop tests.

    webrtc_peer.py --url ws://127.0.0.1:7700/rtc --room R --user U --token T publish [options]
    webrtc_peer.py --url ... --room R --user V --token T subscribe --publisher U [options]
    webrtc_peer.py --url http://127.0.0.1:7700/whip --token T whip [options]
    webrtc_peer.py --url http://127.0.0.1:7700/whep/PUBLISHER --token T whep [options]
    webrtc_peer.py --self-test [--codec H264]

Every run ends with one JSON line on standard output (protocol traffic goes to standard error
with --verbose). Exit status: 0 expectations met, 1 not met (or timed out), 2 protocol error
(the relay refused a request, the control connection failed, or aiortc refused an SDP).
"""

import argparse
import asyncio
import json
import logging
import os
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from aiortc import RTCBundlePolicy, RTCConfiguration, RTCIceServer, RTCPeerConnection, RTCSessionDescription
from aiortc.rtcconfiguration import RTCIceTransportPolicy

from packet_loss import IncomingLoss, OutgoingLoss
from pkrelay_control import TRANSPORT_ERROR_CODE, ControlChannel, RelayError
from sdp_sections import (
    first_codec,
    imitate_relay_offer,
    media_sections,
    mend_stopped_answer,
    mend_stopped_offer,
)
from synthetic_media import (
    FrameCounter,
    MovingPatternTrack,
    ToneTrack,
    codec_preferences,
    use_loopback_only,
)

EXIT_MET = 0
EXIT_NOT_MET = 1
EXIT_PROTOCOL_ERROR = 2

# Relay errors that only mean "the other user is not there yet": retried until the deadline.
SUBSCRIBE_NOT_YET = {4007}
LINK_NOT_YET = {-102046, -102048}
RETRY_INTERVAL = 0.3
# How long a subscriber that has seen enough waits for RTX to bring back what it dropped.
REPAIR_GRACE = 3.0


# ---------------------------------------------------------------------------------------------
# Peers


# The ICE servers the relay named in createTransport, used with --relay-only (the peer then
# reaches the relay only through TURN, as a client whose network blocks UDP to it would).
ICE_SERVERS = []
ICE_RELAY_ONLY = False


def new_peer_connection():
    # No STUN server by default: the relay and this peer share loopback, and a public STUN
    # server would only delay gathering (or stall it on a machine without a route out).
    # max-bundle, as browsers negotiate with the relay: under aiortc's default (balanced) policy
    # an offer whose first sections are [audio, video, audio, video] leaves the second video on
    # a transport that BUNDLE then discards, so that track never starts receiving.
    servers = [RTCIceServer(urls=s["urls"], username=s.get("username"), credential=s.get("credential"))
               for s in ICE_SERVERS]
    policy = RTCIceTransportPolicy.RELAY if ICE_RELAY_ONLY else RTCIceTransportPolicy.ALL
    return RTCPeerConnection(RTCConfiguration(iceServers=servers, iceTransportPolicy=policy,
                                              bundlePolicy=RTCBundlePolicy.MAX_BUNDLE))


class PublisherPeer:
    """The sending RTCPeerConnection with a synthetic camera and microphone."""

    def __init__(self, codec, audio, video, rtx):
        self.pc = new_peer_connection()
        self.video = MovingPatternTrack() if video else None
        self.audio = ToneTrack() if audio else None
        self.connected = False
        self.pc.on("connectionstatechange", self._on_state)
        if self.video is not None:
            transceiver = self.pc.addTransceiver(self.video, direction="sendonly")
            transceiver.setCodecPreferences(codec_preferences("video", codec, rtx))
        if self.audio is not None:
            transceiver = self.pc.addTransceiver(self.audio, direction="sendonly")
            transceiver.setCodecPreferences(codec_preferences("audio", "opus", False))

    def _on_state(self):
        if self.pc.connectionState == "connected":
            self.connected = True

    async def offer(self):
        # aiortc gathers every candidate inside setLocalDescription: the SDP is complete.
        await self.pc.setLocalDescription(await self.pc.createOffer())
        return self.pc.localDescription.sdp

    async def accept_answer(self, sdp):
        await self.pc.setRemoteDescription(RTCSessionDescription(sdp=sdp, type="answer"))

    async def packets_sent(self):
        sent = {}
        for stats in (await self.pc.getStats()).values():
            if stats.type == "outbound-rtp":
                sent[stats.kind] = sent.get(stats.kind, 0) + stats.packetsSent
        return sent

    def frames_sent(self):
        return {
            "video": self.video.frames_produced if self.video else 0,
            "audio": self.audio.frames_produced if self.audio else 0,
        }


class SubscriberPeer:
    """The receiving RTCPeerConnection: answers offers and counts decoded frames per publisher."""

    def __init__(self, fallback_owner, mend_stopped_sections=False, candidate_via=None):
        self.pc = new_peer_connection()
        self.mend_stopped_sections = mend_stopped_sections
        self.candidate_via = candidate_via
        self.counter = FrameCounter()
        self.fallback_owner = fallback_owner
        self.owners = {}  # mid -> publisher userId, from the latest offer
        self.offers = 0
        self.connected = False
        self.pc.on("connectionstatechange", self._on_state)
        self.pc.on("track", self._on_track)

    def _on_state(self):
        if self.pc.connectionState == "connected":
            self.connected = True

    async def answer(self, offer_sdp):
        self.offers += 1
        for section in media_sections(offer_sdp):
            if section["mid"] is not None and section["owner"]:
                self.owners[section["mid"]] = section["owner"]
        offered = mend_stopped_offer(offer_sdp) if self.mend_stopped_sections else offer_sdp
        if self.candidate_via:
            offered = rewrite_candidates(offered, self.candidate_via)
        await self.pc.setRemoteDescription(RTCSessionDescription(sdp=offered, type="offer"))
        await self.pc.setLocalDescription(await self.pc.createAnswer())
        answer = self.pc.localDescription.sdp
        return mend_stopped_answer(answer, offer_sdp) if self.mend_stopped_sections else answer

    def _on_track(self, track):
        mid = next(
            (t.mid for t in self.pc.getTransceivers() if t.receiver.track is track), None
        )
        self.counter.consume(track, lambda: self.owners.get(mid) or self.fallback_owner)


def rewrite_candidates(sdp, via):
    """The relay's candidates pointed at `via` (HOST:PORT): an impairment relay in front of it."""
    host, port = via.rsplit(":", 1)
    lines = []
    for line in sdp.split("\r\n"):
        if line.startswith("a=candidate:"):
            fields = line.split(" ")
            if len(fields) > 5:
                fields[4], fields[5] = host, port
            line = " ".join(fields)
        lines.append(line)
    return "\r\n".join(lines)


async def close_quietly(pc):
    try:
        await asyncio.wait_for(pc.close(), 5)
    except Exception:
        pass


# ---------------------------------------------------------------------------------------------
# Shared plumbing of the relay modes


class ProtocolFailure(Exception):
    """Something this peer cannot go on from; carries the error JSON to print."""

    def __init__(self, error):
        super().__init__(error.get("message"))
        self.error = error


def split_list(text):
    return [item for item in (text or "").split(",") if item]


class RelaySession:
    """The control connection of one run, and what the relay said about our transports."""

    def __init__(self, args, report):
        self.args = args
        self.report = report
        self.channel = ControlChannel(args.url, verbose=args.verbose)
        self.transport_states = {}  # transportId -> latest onTransportStateChanged data
        self.channel.add_listener(self._on_event)

    def _on_event(self, name, data):
        if name == "onTransportStateChanged":
            self.transport_states[data.get("transportId")] = data
        elif name == "onExitRoom" and data.get("roomId") == self.args.room:
            self.report["exitRoom"] = data

    async def request(self, method, params, timeout=10):
        try:
            return await self.channel.request(method, params, timeout)
        except RelayError as error:
            raise ProtocolFailure(error.as_json())

    async def join(self, role, visible, room_config=None):
        params = {
            "token": self.args.token,
            "roomId": self.args.room,
            "userId": self.args.user,
            "role": role,
            "visible": visible,
        }
        if room_config:
            params["roomConfig"] = room_config
        return await self.request("joinRoom", params)

    async def create_webrtc_transport(self):
        # The room goes with it (the transport may come before the join): the relay places
        # the transport on that room's media thread, whose port it answers with.
        transport = await self.request("createTransport", {"kind": "webrtc", "roomId": self.args.room})
        if "transportId" not in transport:
            raise ProtocolFailure(
                {"method": "createTransport", "code": TRANSPORT_ERROR_CODE,
                 "message": f"no transportId in {transport}"}
            )
        self.report.setdefault("transports", []).append(
            {"transportId": transport["transportId"], "port": transport.get("port")})
        if getattr(self.args, "relay_only", False):
            global ICE_SERVERS, ICE_RELAY_ONLY
            ICE_SERVERS = [s for s in transport.get("iceServers", []) if any(u.startswith("turn") for u in s.get("urls", []))]
            ICE_RELAY_ONLY = True
            self.report["iceServers"] = [u for s in ICE_SERVERS for u in s["urls"]]
            if not ICE_SERVERS:
                raise ProtocolFailure({"method": "createTransport", "code": TRANSPORT_ERROR_CODE,
                                       "message": f"--relay-only, but the relay names no TURN server: {transport}"})
        return transport

    def transport_failure(self, transport_id):
        """The relay's own account of a failed or closed transport, if it gave one."""
        data = self.transport_states.get(transport_id)
        if data and data.get("state") in ("failed", "closed"):
            return data
        return None

    def check_alive(self, transport_id):
        failure = self.transport_failure(transport_id)
        if failure is not None:
            raise ProtocolFailure(
                {"method": "onTransportStateChanged", "code": failure.get("errorCode", 0),
                 "message": f"relay reports transport {transport_id} {failure.get('state')}: "
                            f"{failure.get('reason', '')}"}
            )
        if self.channel.closed:
            raise ProtocolFailure(
                {"method": "control", "code": TRANSPORT_ERROR_CODE,
                 "message": "the control connection closed"}
            )

    async def retry_until(self, deadline, method, params, retry_codes):
        """Repeat a request while the relay answers one of retry_codes (someone not there yet)."""
        while True:
            try:
                return await self.channel.request(method, params)
            except RelayError as error:
                if error.code not in retry_codes or time.monotonic() + RETRY_INTERVAL > deadline:
                    raise ProtocolFailure(error.as_json())
            await asyncio.sleep(RETRY_INTERVAL)


async def wait_connected(peer, session, transport_id, seconds):
    deadline = time.monotonic() + seconds
    while not peer.connected and time.monotonic() < deadline:
        session.check_alive(transport_id)
        if peer.pc.connectionState in ("failed", "closed"):
            break
        await asyncio.sleep(0.05)
    return peer.connected


# ---------------------------------------------------------------------------------------------
# publish


async def run_publish(args, report):
    loss = OutgoingLoss(args.drop_video_every) if args.drop_video_every else None
    if loss:
        loss.install()
    session = RelaySession(args, report)
    await session.channel.connect()
    peer = None
    try:
        await session.join("anchor", True)
        transport = await session.create_webrtc_transport()
        transport_id = transport["transportId"]
        report["transportId"] = transport_id

        peer = PublisherPeer(args.codec, audio=not args.no_audio, video=not args.no_video,
                             rtx=not args.no_rtx)
        offer = await peer.offer()
        published = await session.request(
            "publishStream",
            {"roomId": args.room, "streamIndex": "main", "transportId": transport_id,
             "sdp": offer},
        )
        report["mediaType"] = published.get("mediaType")
        answer = published.get("sdp")
        if not answer:
            raise ProtocolFailure({"method": "publishStream", "code": TRANSPORT_ERROR_CODE,
                                   "message": "the result has no sdp"})
        try:
            await peer.accept_answer(answer)
        except Exception as error:
            raise ProtocolFailure({"method": "setRemoteDescription", "code": TRANSPORT_ERROR_CODE,
                                   "message": f"aiortc refused the relay's answer: {error!r}"})
        report["videoCodec"] = first_codec(answer, "video")
        if loss:
            video = next((s for s in media_sections(answer) if s["kind"] == "video" and s["port"]), None)
            if video and video["payloadTypes"]:
                rtx = next((int(p) for p in video["payloadTypes"]
                            if video["rtpmap"].get(p, "").lower() == "rtx"), None)
                loss.configure(int(video["payloadTypes"][0]), rtx)
        report["audioCodec"] = first_codec(answer, "audio")

        started = time.monotonic()
        deadline = started + args.duration
        report["connected"] = await wait_connected(peer, session, transport_id,
                                                   min(args.duration, 15))
        if report["connected"]:
            report["connectMs"] = round((time.monotonic() - started) * 1000)

        if args.forward_to:
            rooms = split_list(args.forward_to)
            tokens = split_list(args.forward_token)
            if len(tokens) != len(rooms):
                raise ProtocolFailure({"method": "startForwardStreamToRooms", "code": -32602,
                                       "message": "give one --forward-token per --forward-to room"})
            result = await session.request(
                "startForwardStreamToRooms",
                {"roomId": args.room,
                 "targets": [{"roomId": r, "token": t} for r, t in zip(rooms, tokens)]},
            )
            report["forward"] = result.get("infos")

        if args.connect_room:
            result = await session.retry_until(
                deadline, "connectOtherRoom",
                {"roomId": args.connect_room, "userId": args.connect_user}, LINK_NOT_YET,
            )
            report["link"] = result

        while time.monotonic() < deadline:
            session.check_alive(transport_id)
            if peer.pc.connectionState in ("failed", "closed"):
                break
            await asyncio.sleep(min(0.2, max(0.0, deadline - time.monotonic())))
    finally:
        if peer is not None:
            report["framesSent"] = peer.frames_sent()["video"]
            report["audioFramesSent"] = peer.frames_sent()["audio"]
            report["packetsSent"] = await peer.packets_sent()
            report["connectionState"] = peer.pc.connectionState
            await close_quietly(peer.pc)
        if loss:
            report["loss"] = loss.report()
        report["relayTransportState"] = session.transport_states.get(report.get("transportId"))
        await session.channel.close()

    sent = report["framesSent"] if not args.no_video else report["audioFramesSent"]
    return EXIT_MET if report["connected"] and sent > 0 else EXIT_NOT_MET


# ---------------------------------------------------------------------------------------------
# whip: publishing over WHIP (RFC 9725) instead of the control channel


def http_request(method, url, body=None, headers=None):
    """One HTTP request; returns (status, headers, body text). Errors are answers, not raises."""
    request = urllib.request.Request(url, data=body.encode() if body is not None else None, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


async def run_whip(args, report):
    """POSTs an aiortc offer to a WHIP endpoint, sends media for --duration, then DELETEs the
    session's resource."""
    peer = PublisherPeer(args.codec, audio=not args.no_audio, video=not args.no_video, rtx=not args.no_rtx)
    try:
        offer = await peer.offer()
        status, headers, answer = await asyncio.to_thread(
            http_request, "POST", args.url, offer, {"Content-Type": "application/sdp", "Authorization": f"Bearer {args.token}"})
        report["status"] = status
        report["location"] = headers.get("Location")
        report["contentType"] = headers.get("Content-Type")
        if status != 201 or not report["location"]:
            raise ProtocolFailure({"method": "POST", "code": status, "message": answer.strip()})
        try:
            await peer.accept_answer(answer)
        except Exception as error:
            raise ProtocolFailure({"method": "setRemoteDescription", "code": TRANSPORT_ERROR_CODE,
                                   "message": f"aiortc refused the relay's answer: {error!r}"})
        report["videoCodec"] = first_codec(answer, "video")
        started = time.monotonic()
        while time.monotonic() - started < min(args.duration, 15) and not peer.connected:
            await asyncio.sleep(0.05)
        report["connected"] = peer.connected
        if peer.connected:
            report["connectMs"] = round((time.monotonic() - started) * 1000)
        while time.monotonic() - started < args.duration and peer.pc.connectionState not in ("failed", "closed"):
            await asyncio.sleep(0.2)
        resource = urllib.parse.urljoin(args.url, report["location"])
        report["deleteStatus"] = (await asyncio.to_thread(
            http_request, "DELETE", resource, None, {"Authorization": f"Bearer {args.token}"}))[0]
    finally:
        report["framesSent"] = peer.frames_sent()["video"]
        report["packetsSent"] = await peer.packets_sent()
        await close_quietly(peer.pc)
    return EXIT_MET if report["connected"] and report["framesSent"] > 0 and report.get("deleteStatus") in (200, 204) else EXIT_NOT_MET


async def run_whep(args, report):
    """POSTs an aiortc offer to receive audio and video to a WHEP endpoint (--url names the
    publisher), counts decoded frames until --min-video-frames (or --duration), then DELETEs
    the session's resource."""
    pc = new_peer_connection()
    counter = FrameCounter()
    pc.addTransceiver("audio", direction="recvonly")
    pc.addTransceiver("video", direction="recvonly")
    pc.on("track", lambda track: counter.consume(track, lambda: "publisher"))
    started = time.monotonic()
    try:
        await pc.setLocalDescription(await pc.createOffer())
        status, headers, answer = await asyncio.to_thread(
            http_request, "POST", args.url, pc.localDescription.sdp,
            {"Content-Type": "application/sdp", "Authorization": f"Bearer {args.token}"})
        report["status"] = status
        report["location"] = headers.get("Location")
        if status != 201 or not report["location"]:
            raise ProtocolFailure({"method": "POST", "code": status, "message": answer.strip()})
        try:
            await pc.setRemoteDescription(RTCSessionDescription(sdp=answer, type="answer"))
        except Exception as error:
            raise ProtocolFailure({"method": "setRemoteDescription", "code": TRANSPORT_ERROR_CODE,
                                   "message": f"aiortc refused the relay's answer: {error!r}"})
        report["videoCodec"] = first_codec(answer, "video")
        needed = args.min_video_frames or 0
        while time.monotonic() - started < args.duration:
            report["connected"] = report["connected"] or pc.connectionState == "connected"
            if needed and counter.count("video", "publisher") >= needed and counter.count("audio", "publisher") >= args.min_audio_frames:
                break
            await counter.wait_for_change(0.2)
        first = counter.first_frame_at.get(("publisher", "video"))
        if first is not None:
            report["firstVideoFrameMs"] = round((first - started) * 1000)
        resource = urllib.parse.urljoin(args.url, report["location"])
        report["deleteStatus"] = (await asyncio.to_thread(
            http_request, "DELETE", resource, None, {"Authorization": f"Bearer {args.token}"}))[0]
    finally:
        report["videoFrames"] = counter.count("video", "publisher")
        report["audioFrames"] = counter.count("audio", "publisher")
        await counter.stop()
        await close_quietly(pc)
    met = report["videoFrames"] >= (args.min_video_frames or 1) and report["audioFrames"] >= args.min_audio_frames
    return EXIT_MET if met and report.get("deleteStatus") in (200, 204) else EXIT_NOT_MET


# ---------------------------------------------------------------------------------------------
# subscribe


def expectations(args, publishers):
    expected = split_list(args.expect) or publishers
    absent = split_list(args.expect_absent)
    min_video = args.min_video_frames if args.min_video_frames is not None else 1
    return expected, absent, min_video


def expectations_met(args, peer, expected, absent, min_video):
    counter = peer.counter
    if not peer.connected and (expected or not absent):
        return False
    for user in expected:
        if counter.count("video", user) < min_video:
            return False
        if counter.count("audio", user) < args.min_audio_frames:
            return False
    for user in absent:
        if counter.count("video", user) or counter.count("audio", user):
            return False
    return True


async def run_subscribe(args, report):
    publishers = split_list(args.publisher)
    expected, absent, min_video = expectations(args, publishers)
    named = set(publishers) | set(expected)
    # Without a usable msid or cname, a lone named publisher is the only sensible owner.
    fallback_owner = next(iter(named)) if len(named) == 1 else "unknown"

    loss = IncomingLoss(args.drop_video_every) if args.drop_video_every else None
    if loss:
        loss.install()
    session = RelaySession(args, report)
    peer = None  # made once the transport is, whose result may name the ICE servers to use
    offers = asyncio.Queue()
    failures = []
    transport_id = None

    def on_event(name, data):
        if name == "onTransportOffer" and (
            transport_id is None or data.get("transportId") == transport_id
        ):
            offers.put_nowait(data)

    session.channel.add_listener(on_event)

    async def answer_offers():
        # One at a time, in order: the relay sends the next offer only after our answer.
        while True:
            data = await offers.get()
            try:
                answer = await peer.answer(data.get("sdp", ""))
            except Exception as error:
                failures.append({"method": "onTransportOffer", "code": TRANSPORT_ERROR_CODE,
                                 "message": f"aiortc refused offer revision "
                                            f"{data.get('revision')}: {error!r}"})
                return
            try:
                await session.channel.request(
                    "answerTransportOffer",
                    {"transportId": data.get("transportId"), "revision": data.get("revision"),
                     "sdp": answer},
                )
                report["answers"] = report.get("answers", 0) + 1
            except RelayError as error:
                failures.append(error.as_json())
                return

    answering = asyncio.ensure_future(answer_offers())
    started = time.monotonic()
    deadline = started + args.duration
    subscribing = []
    try:
        await session.channel.connect()
        transport = await session.create_webrtc_transport()
        transport_id = transport["transportId"]
        report["transportId"] = transport_id
        peer = SubscriberPeer(fallback_owner, args.mend_stopped_sections, args.candidate_via)

        room_config = {"subscribeTransportId": transport_id} if args.auto else None
        joined = await session.join("anchor" if args.anchor else "audience", args.anchor,
                                    room_config)
        report["usersAtJoin"] = [u.get("userId") for u in joined.get("users", [])]
        if args.fallback_option is not None:
            await session.request("setSubscribeFallbackOption", {"option": args.fallback_option})

        async def subscribe(user):
            result = await session.retry_until(
                deadline, "subscribeStream",
                {"roomId": args.room, "userId": user, "transportId": transport_id,
                 "mediaType": args.media_type},
                SUBSCRIBE_NOT_YET,
            )
            report.setdefault("subscribed", {})[user] = [
                {k: t.get(k) for k in ("kind", "codec", "ssrc", "payloadType")}
                for t in result.get("tracks", [])
            ]

        async def subscribe_and_catch(user):
            try:
                await subscribe(user)
            except ProtocolFailure as failure:
                failures.append(failure.error)

        if not args.auto:
            subscribing = [asyncio.ensure_future(subscribe_and_catch(u)) for u in publishers]

        # Stopping early is only sound when every expectation is a "reached at least" one.
        stop_early = args.min_video_frames is not None and expected and not absent
        met_at = None
        while time.monotonic() < deadline:
            if failures:
                raise ProtocolFailure(failures[0])
            session.check_alive(transport_id)
            if stop_early and expectations_met(args, peer, expected, absent, min_video):
                # aiortc NACKs a packet again only when a later gap opens, so a drop just
                # before the expectations were met is repaired a few packets later: wait for
                # it, a bounded time, rather than report a repair that was still on its way.
                met_at = met_at or time.monotonic()
                if not loss or not loss.unrepaired() or time.monotonic() - met_at > REPAIR_GRACE:
                    break
            await peer.counter.wait_for_change(min(0.25, max(0.0, deadline - time.monotonic())))
        if failures:
            raise ProtocolFailure(failures[0])
    finally:
        for task in subscribing + [answering]:
            task.cancel()
        if peer is not None:
            report["connected"] = peer.connected
            report["videoFrames"] = dict(peer.counter.counts.get("video", {}))
            report["audioFrames"] = dict(peer.counter.counts.get("audio", {}))
            report["firstVideoFrameMs"] = {
                user: round((at - started) * 1000)
                for (user, kind), at in peer.counter.first_frame_at.items() if kind == "video"
            }
            report["offers"] = peer.offers
            if loss:
                report["loss"] = loss.report()
            report["elapsedMs"] = round((time.monotonic() - started) * 1000)
            report["relayTransportState"] = session.transport_states.get(transport_id)
            await peer.counter.stop()
            await close_quietly(peer.pc)
        await session.channel.close()

    met = expectations_met(args, peer, expected, absent, min_video)
    report["expectationsMet"] = met
    return EXIT_MET if met else EXIT_NOT_MET


# ---------------------------------------------------------------------------------------------
# self-test: publisher and subscriber connected directly, no relay


async def run_self_test(args, report):
    user = "self-test-publisher"
    publisher = PublisherPeer(args.codec, audio=not args.no_audio, video=not args.no_video,
                              rtx=not args.no_rtx)
    subscriber = SubscriberPeer("unknown")
    min_video = args.min_video_frames if args.min_video_frames is not None else 30
    started = time.monotonic()
    deadline = started + args.duration
    try:
        async def negotiate():
            offer = imitate_relay_offer(await publisher.offer(), user)
            await publisher.accept_answer(await subscriber.answer(offer))

        await negotiate()
        # Progress is measured on video, or on audio when there is no video.
        progress_kind, target = ("audio", 50) if args.no_video else ("video", min_video)
        renegotiated = False
        while time.monotonic() < deadline:
            received = subscriber.counter.count(progress_kind, user)
            # Halfway, offer again while media flows, as the relay does whenever the tracks
            # on a transport change: frames must keep coming afterwards.
            if not renegotiated and received >= max(1, target // 2):
                await negotiate()
                renegotiated = True
                report["framesBeforeRenegotiation"] = received
            if renegotiated and received >= target and (
                args.no_audio or subscriber.counter.count("audio", user) > 0
            ):
                break
            await subscriber.counter.wait_for_change(0.25)
    finally:
        report["connected"] = publisher.connected and subscriber.connected
        report["framesSent"] = publisher.frames_sent()["video"]
        report["audioFramesSent"] = publisher.frames_sent()["audio"]
        report["videoFrames"] = dict(subscriber.counter.counts.get("video", {}))
        report["audioFrames"] = dict(subscriber.counter.counts.get("audio", {}))
        report["offers"] = subscriber.offers
        report["videoCodec"] = first_codec(publisher.pc.remoteDescription.sdp, "video") \
            if publisher.pc.remoteDescription else None
        report["elapsedMs"] = round((time.monotonic() - started) * 1000)
        await subscriber.counter.stop()
        await close_quietly(publisher.pc)
        await close_quietly(subscriber.pc)

    video_ok = args.no_video or subscriber.counter.count("video", user) >= min_video
    audio_ok = args.no_audio or subscriber.counter.count("audio", user) > 0
    codec_ok = args.no_video or (report["videoCodec"] or "").lower() == args.codec.lower()
    return EXIT_MET if report["connected"] and video_ok and audio_ok and codec_ok else EXIT_NOT_MET


# ---------------------------------------------------------------------------------------------
# Entry point


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        description="aiortc WebRTC peer for PKRelay interop tests. Prints one JSON line; "
                    "exit 0 expectations met, 1 not met, 2 protocol error.")
    parser.add_argument("mode", nargs="?", choices=["publish", "subscribe", "whip", "whep"])
    parser.add_argument("--self-test", action="store_true",
                        help="connect a local publisher to a local subscriber, no relay")
    parser.add_argument("--url", help="control WebSocket, e.g. ws://127.0.0.1:7700/rtc; for whip, the WHIP "
                        "endpoint, e.g. http://127.0.0.1:7700/whip")
    parser.add_argument("--room")
    parser.add_argument("--user")
    parser.add_argument("--token")
    parser.add_argument("--duration", type=float, default=8.0,
                        help="seconds to send or receive (default 8)")
    parser.add_argument("--timeout", type=float,
                        help="hard bound on the whole run (default duration + 30 s)")
    parser.add_argument("--verbose", action="store_true", help="log protocol traffic to stderr")
    parser.add_argument("--debug", action="store_true", help="also log aiortc/aioice internals")
    parser.add_argument("--relay-only", action="store_true",
                        help="reach the relay only through the TURN servers its createTransport result names")
    parser.add_argument("--drop-video-every", type=int, metavar="N",
                        help="drop every Nth video packet (by sequence number) the first time: "
                             "sent ones when publishing, received ones when subscribing; the "
                             "report's loss counts show how retransmission repaired them")

    sending = parser.add_argument_group("publish")
    sending.add_argument("--codec", default="VP8", choices=["VP8", "H264"])
    sending.add_argument("--no-audio", action="store_true")
    sending.add_argument("--no-video", action="store_true")
    sending.add_argument("--no-rtx", action="store_true",
                         help="offer video without RTX (aiortc offers it by default)")
    sending.add_argument("--forward-to", metavar="ROOM[,ROOM]",
                         help="startForwardStreamToRooms into these rooms after publishing")
    sending.add_argument("--forward-token", metavar="TOKEN[,TOKEN]",
                         help="one token per --forward-to room, minted for this user there")
    sending.add_argument("--connect-room", metavar="ROOM",
                         help="connectOtherRoom: PK link with --connect-user of this room")
    sending.add_argument("--connect-user", metavar="USER")

    receiving = parser.add_argument_group("subscribe")
    receiving.add_argument("--publisher", metavar="USER[,USER]",
                           help="subscribeStream to these users (retried until they publish)")
    receiving.add_argument("--auto", action="store_true",
                           help="join with roomConfig.subscribeTransportId instead")
    receiving.add_argument("--anchor", action="store_true",
                           help="join as a visible anchor (default: invisible audience)")
    receiving.add_argument("--media-type", type=int, default=3, choices=[1, 2, 3],
                           help="subscribeStream mediaType: 1 audio, 2 video, 3 both")
    receiving.add_argument("--expect", metavar="USER[,USER]",
                           help="users whose video must arrive (default: --publisher)")
    receiving.add_argument("--expect-absent", metavar="USER[,USER]",
                           help="users of whom no frame may arrive")
    receiving.add_argument("--min-video-frames", type=int, metavar="N",
                           help="decoded video frames needed per expected user; "
                                "stop as soon as every one has them")
    receiving.add_argument("--fallback-option", type=int, choices=[0, 1, 2],
                           help="setSubscribeFallbackOption after joining: 0 none, 1 small stream, "
                                "2 small stream then audio only")
    receiving.add_argument("--candidate-via", metavar="HOST:PORT",
                           help="reach the relay through HOST:PORT (an impairment relay in front of its WebRTC port): "
                                "its offers' candidates are rewritten to it")
    receiving.add_argument("--min-audio-frames", type=int, default=0, metavar="N",
                           help="decoded audio frames needed per expected user (default 0)")
    receiving.add_argument("--mend-stopped-sections", action="store_true",
                           help="work around aiortc's handling of stopped (port 0) sections in "
                                "re-offers: add the transport attributes it requires, answer "
                                "them with port 0")
    args = parser.parse_args(argv)

    if args.self_test:
        if args.mode:
            parser.error("--self-test takes no mode")
        args.mode = "self-test"
    elif not args.mode:
        parser.error("give a mode (publish or subscribe) or --self-test")
    elif args.mode in ("whip", "whep"):
        missing = [f"--{n}" for n in ("url", "token") if not getattr(args, n)]
        if missing:
            parser.error(f"{args.mode} needs {', '.join(missing)}")
    else:
        missing = [f"--{n}" for n in ("url", "room", "user", "token") if not getattr(args, n)]
        if missing:
            parser.error(f"{args.mode} needs {', '.join(missing)}")
    if args.mode == "subscribe" and not args.auto and not args.publisher:
        parser.error("subscribe needs --publisher USER or --auto")
    if bool(args.connect_room) != bool(args.connect_user):
        parser.error("--connect-room and --connect-user go together")
    if args.no_audio and args.no_video:
        parser.error("--no-audio and --no-video leave nothing to send")
    if args.timeout is None:
        args.timeout = args.duration + 30
    return args


def emit(report):
    print(json.dumps(report, sort_keys=True), flush=True)


def start_watchdog(report, seconds):
    """Last resort if the event loop itself is stuck (the asyncio timeout never fires then)."""

    def fire():
        report["error"] = {"method": "watchdog", "code": TRANSPORT_ERROR_CODE,
                           "message": f"still running after {seconds:.0f} s"}
        emit(report)
        os._exit(EXIT_NOT_MET)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()


async def main(args, report):
    runners = {"publish": run_publish, "subscribe": run_subscribe, "self-test": run_self_test, "whip": run_whip, "whep": run_whep}
    try:
        return await asyncio.wait_for(runners[args.mode](args, report), args.timeout)
    except asyncio.TimeoutError:
        report["error"] = {"method": "timeout", "code": TRANSPORT_ERROR_CODE,
                           "message": f"the run took more than {args.timeout:.0f} s"}
        return EXIT_NOT_MET
    except ProtocolFailure as failure:
        report["error"] = failure.error
        return EXIT_PROTOCOL_ERROR
    except RelayError as error:
        report["error"] = error.as_json()
        return EXIT_PROTOCOL_ERROR


def run(argv):
    args = parse_arguments(argv)
    logging.basicConfig(level=logging.DEBUG if args.debug else logging.ERROR, stream=sys.stderr)
    if not args.debug:
        # Tasks aiortc leaves behind at close log harmless tracebacks; keep stderr readable.
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    use_loopback_only()

    report = {"mode": args.mode, "connected": False}
    start_watchdog(report, args.timeout + 15)
    code = asyncio.run(main(args, report))
    emit(report)
    # aiortc's encoder threads and leftover tasks can delay interpreter exit; nothing is left
    # to flush once the report is out.
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    run(sys.argv[1:])
