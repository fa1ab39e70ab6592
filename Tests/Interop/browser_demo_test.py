#!/usr/bin/python3
"""Drives the relay's browser demo (/demo/) with headless Chromium and checks that video flows.

Phase 1: anchor-a publishes in room demo-a from one browser (Chromium's fake camera and
microphone); viewer-1 watches room demo-a from a second browser and must decode more than
--frames video frames of anchor-a.

Simulcast phase (--simulcast, after phase 1 and before the PK phase): anchor-s publishes in
room demo-s with WebRTC simulcast (anchor.html?simulcast=1: a small encoding at half the
resolution and a big one, which the relay takes as its dual stream); viewer-s watches with
audience.html?layer=small and must decode the small layer of anchor-s. It then switches to big
(pkDemo.setLayer, i.e. setRemoteVideoStreamType): the delivered layer must become big and the
decoded width grow, without the frame counter stalling; then back to small, the width must
shrink again. `--page-query scalabilityMode=L1T1` sends both encodings without temporal layers.

Phase 2 (--pk): anchor-b publishes in room demo-b from a third browser; anchor-a invites it
through the page's buttons, anchor-b accepts, and then viewer-1 (room demo-a) must decode
anchor-b, and each anchor its partner. Hanging up must take anchor-b's tile away again.

Reconnection phase (--reconnect, with --pk, while the rooms are linked): anchor-a and viewer-1
reach the relay's control channel through a TCP proxy of this script, which then cuts every
connection it carries, as a relay or network that drops a WebSocket would. Both pages (the web
SDK) must report reconnecting and then reconnected; anchor-a must be live and linked again
(the SDK rejoins, republishes and restores the link), anchor-b linked again; viewer-1 must decode
anchor-a and anchor-b again and anchor-b must decode anchor-a again.

Guide phase (--guide, last): the five-minute guide of docs/SDK.md, as a developer assembles it
in one page, must work: two anchors publish, a viewer decodes both after an invitation with
autoLink, a room message reaches the linked room, and a hang-up removes the partner.

Usage:
    python3 Tests/Interop/browser_demo_test.py --base http://127.0.0.1:PORT [--timeout 60]
        [--simulcast] [--pk] [--reconnect] [--guide] [--admin http://127.0.0.1:ADMIN_PORT]

Prints one JSON summary on standard output and exits 0 on success, 1 on failure (the summary
then carries each page's state, last error, log and console output). The whole run is bounded
by --timeout: a watchdog ends the process even if a browser stops answering.

Needs Debian's chromium, chromium-driver and python3-selenium, and a relay that serves /demo/,
/demo/token (development key) and /rtc on the --base origin. Chromium ignores loopback ICE
candidates unless told otherwise (--allow-loopback-in-peer-connection, set here); run relay and
test in one network namespace with only `lo` up so no other interface is used, e.g.
    unshare --net bash -c 'ip link set lo up; pkrelay serve --config C & ...; python3 ...'
"""

import argparse
import json
import os
import signal
import socket
import sys
import threading
import time
import urllib.parse
import urllib.request

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError:
    print(json.dumps({
        "ok": False,
        "error": "python module selenium is missing: apt-get install -y chromium chromium-driver "
                 "python3-selenium, and run this script with Debian's /usr/bin/python3",
    }))
    sys.exit(1)

CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",                         # runs as root in CI containers
    "--use-fake-device-for-media-stream",   # a synthetic camera and microphone
    "--use-fake-ui-for-media-stream",       # grant getUserMedia without a prompt
    "--allow-loopback-in-peer-connection",  # otherwise 127.0.0.1 candidates are ignored
    "--autoplay-policy=no-user-gesture-required",
    "--window-size=1280,900",
]

# States after which a page will not make progress by itself.
DEAD_STATES = {"error", "disconnected", "left", "waiting for room and user"}

# Reads the page's decoded-frame counters without letting a rejected promise hang the call.
FRAMES_SCRIPT = """
const done = arguments[arguments.length - 1];
if (!window.pkDemo) { done({}); return; }
window.pkDemo.framesDecoded().then(done, (e) => done({"error": String(e)}));
"""

ENCODED_SCRIPT = """
const done = arguments[arguments.length - 1];
if (!window.pkDemo || !window.pkDemo.framesEncoded) { done(0); return; }
window.pkDemo.framesEncoded().then(done, () => done(0));
"""

SNAPSHOT_SCRIPT = """
const d = window.pkDemo;
if (!d) return null;
return {state: d.state, pkState: d.pkState, peer: d.peer, lastError: d.lastError, connection: d.connection,
        reconnects: d.reconnects, tiles: d.tiles(), layers: d.layers ? d.layers() : undefined, log: d.log.slice(-60)};
"""

# Audience page: decoded resolution per publisher ({userId: {width, height}}).
SIZES_SCRIPT = """
const done = arguments[arguments.length - 1];
if (!window.pkDemo || !window.pkDemo.frameSizes) { done({}); return; }
window.pkDemo.frameSizes().then(done, (e) => done({"error": String(e)}));
"""

# Audience page: asks for a publisher's big (0) or small (1) video; answers the relay's result
# or {error}, never a rejected promise.
SET_LAYER_SCRIPT = """
const [userId, streamType, done] = arguments;
window.pkDemo.setLayer(userId, streamType).then(
    (result) => done({result}),
    (e) => done({error: {code: e.code, message: String(e.message || e)}}));
"""

# Anchor page: each video encoding it sends (rid, resolution, why it is limited).
ENCODINGS_SCRIPT = """
const done = arguments[arguments.length - 1];
if (!window.pkDemo || !window.pkDemo.encodings) { done([]); return; }
window.pkDemo.encodings().then(done, (e) => done([{error: String(e)}]));
"""

# Audience page: the receiving side of each video track, to tell a frame that never arrives
# from one that arrives but is not decoded.
INBOUND_SCRIPT = """
const done = arguments[arguments.length - 1];
const pc = window.pkDemo.peerConnections.receive;
if (!pc) { done([]); return; }
pc.getStats().then((report) => {
  const list = [];
  report.forEach((e) => {
    if (e.type !== 'inbound-rtp' || e.kind !== 'video') return;
    list.push({ssrc: e.ssrc, packetsReceived: e.packetsReceived, packetsLost: e.packetsLost,
               framesReceived: e.framesReceived, framesDecoded: e.framesDecoded, framesDropped: e.framesDropped,
               keyFramesDecoded: e.keyFramesDecoded, frameWidth: e.frameWidth, nackCount: e.nackCount,
               pliCount: e.pliCount, firCount: e.firCount, freezeCount: e.freezeCount});
  });
  done(list);
}, (e) => done([{error: String(e)}]));
"""

# Any page: the relay's view of the connection's traffic (getStats), for diagnostics.
RELAY_STATS_SCRIPT = """
const done = arguments[arguments.length - 1];
window.pkDemo.request('getStats', {}).then(
    (r) => done({published: r.published, subscribed: r.subscribed}),
    (e) => done({error: String(e.message || e)}));
"""


# The five-minute guide of docs/SDK.md as a developer assembles it in one page, in the order the
# guide shows it: each anchor joins (step 1), sets up the guide's watching code (step 2, with the
# loop over room.remoteUsers and the unmute button) and publishes (step 3); an invisible viewer of
# guide-a joins after both published and watches with the same code, so anchor-a reaches it only
# through room.remoteUsers or the relay's replay; anchor-a invites anchor-b with autoLink and
# anchor-b accepts (step 4), a message reaches the linked room, and the hang-up button takes the
# partner's video away. Keep it in step with the guide: it shows that the guide alone is enough to
# build the PK demo.
GUIDE_SCRIPT = r"""
const done = arguments[arguments.length - 1];
const relayUrl = arguments[0];
(async () => {
  const {PKRelayClient} = await import('/sdk/pkrelay.js');
  async function getToken(room, user) {
    const response = await fetch(`/demo/token?room=${room}&user=${user}`);
    return (await response.json()).token;
  }
  const out = {};
  // Step 2, as a function because three clients run it.
  function watch(client, room) {
    const videos = new Map();
    const show = (userId) => {
      if (videos.has(userId)) return;
      const video = Object.assign(document.createElement('video'), {autoplay: true, playsInline: true, muted: true});
      video.srcObject = client.remoteMediaStream(userId);
      videos.set(userId, video);
      document.body.append(video);
    };
    room.on('onUserPublishStream', ({userId, streamIndex}) => streamIndex === 'main' && show(userId));
    client.on('onRemoteTrackAdded', ({userId, mediaStream}) => {
      const video = videos.get(userId);
      if (video) { video.srcObject = null; video.srcObject = mediaStream; }
    });
    const drop = (userId) => { videos.get(userId)?.remove(); videos.delete(userId); };
    room.on('onUserUnpublishStream', ({userId, streamIndex}) => streamIndex === 'main' && drop(userId));
    room.on('onUserLeave', ({userId}) => drop(userId));
    for (const user of room.remoteUsers.values()) {
      if (user.streams.has('main')) show(user.userId);
    }
    const unmute = Object.assign(document.createElement('button'), {textContent: 'Sound on'});
    unmute.onclick = () => { for (const video of videos.values()) video.muted = false; };
    document.body.append(unmute);
    return {videos, unmute};
  }
  async function anchor(roomId, userId) {
    // Step 1.
    const client = new PKRelayClient({url: relayUrl, tokenProvider: ({roomId, userId}) => getToken(roomId, userId)});
    const room = await client.joinRoom({roomId, userId, token: await getToken(roomId, userId)});
    room.on('onUserJoined', ({userId, forwardedFrom}) => console.log(userId, 'joined', forwardedFrom ? `from ${forwardedFrom}` : ''));
    room.on('onUserLeave', ({userId, reason}) => console.log(userId, 'left, reason', reason));
    // Step 2.
    const watching = watch(client, room);
    // Step 3.
    const camera = await navigator.mediaDevices.getUserMedia({audio: true, video: {width: 640, height: 360}});
    client.on('onPublicationStateChanged', ({state}) => console.log('publishing:', state));
    const publication = await room.publish(camera);
    return {client, room, publication, watching};
  }
  const a = await anchor('guide-a', 'anchor-a');
  const b = await anchor('guide-b', 'anchor-b');
  // Step 2's viewer.
  const viewer = new PKRelayClient({url: relayUrl});
  const audienceRoom = await viewer.joinRoom({roomId: 'guide-a', userId: 'viewer-1', token: await getToken('guide-a', 'viewer-1'),
                                              role: 'audience', visible: false, autoSubscribeVideoStreamType: 1});
  const {videos, unmute} = watch(viewer, audienceRoom);
  out.shownFromRemoteUsers = [...videos.keys()];
  await audienceRoom.setRemoteVideoStreamType('anchor-a', 0);
  // Step 4.
  const states = [];
  a.room.on('onInvitationStateChanged', ({state, reason}) => states.push(state));
  b.room.on('onInvitationReceived', ({inviteId, fromUserId}) => {
    b.client.acceptInvitation(inviteId).catch((error) => { out.acceptError = error.code; });
  });
  const linked = new Promise((resolve) => a.room.on('onConnectOtherRoom', resolve));
  const hangUp = Object.assign(document.createElement('button'), {textContent: 'End PK'});
  hangUp.onclick = () => a.room.disconnectOtherRoom().catch((error) => { out.hangUpError = error.code; });
  document.body.append(hangUp);
  const {inviteId} = await a.room.invite('guide-b', 'anchor-b', {autoLink: true, payload: 'PK?'});
  out.link = await linked;
  out.inviteId = inviteId;
  out.invitationStates = states;
  await new Promise((r) => setTimeout(r, 4000));
  out.videos = [...videos.keys()];
  out.videoSizes = [...videos.values()].map((v) => [v.videoWidth, v.videoHeight, v.srcObject.getTracks().map((t) => t.kind)]);
  out.stats = await viewer.getRemoteVideoStats();
  // Clicked after the frames were counted: without a real user gesture a browser may pause
  // a video that is unmuted.
  unmute.click();
  out.mutedAfterUnmute = [...videos.values()].map((v) => v.muted);
  out.remoteUsers = [...audienceRoom.remoteUsers.values()].map((u) => ({userId: u.userId, forwardedFrom: u.forwardedFrom}));
  out.msg = await new Promise(async (resolve) => {
    audienceRoom.on('onRoomMessageReceived', (d) => resolve(d));
    await b.room.sendRoomMessage('3:2', {toLinkedRooms: true});
  });
  hangUp.click();
  await new Promise((r) => setTimeout(r, 1000));
  out.videosAfterHangup = [...videos.keys()];
  done(out);
})().catch((e) => done({error: String(e), code: e.code, stack: e.stack}));
"""


# Video stream types of the relay (docs/PROTOCOL.md): 0 big, 1 small.
BIG, SMALL = 0, 1

# Longest time the decoded-frame counter of the switched publisher may stand still while the
# simulcast phase switches layers: a switch happens at a keyframe of the new layer, so the
# viewer's picture should at most hesitate (a few frame intervals), never freeze.
MAX_STALL_SECONDS = 1.0

# How long frames are watched after each switch completed, to see that they keep coming. A
# freeze may start a second or so after the new layer's keyframe was decoded, once frames that
# depend on earlier ones arrive, so a short look would miss it.
AFTER_SWITCH_SECONDS = 3.0


class TestFailure(Exception):
    pass


class ControlProxy:
    """A TCP proxy in front of the relay's control port that can cut every connection it carries.

    Pages opened with `relay=ws://127.0.0.1:<port>/rtc` reach the relay through it; cut() closes
    both sides of each connection, so the browser's WebSocket closes and the relay sees the user's
    connection end, as when a relay or a network drops it. New connections are carried again.
    """

    def __init__(self, upstream_host, upstream_port):
        self.upstream = (upstream_host, upstream_port)
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.pairs = []
        self.carried = 0
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.upstream, timeout=5)
                server.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, server))
                self.carried += 1
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self.pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def pump(source, sink):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        """Closes every carried connection; returns how many were open."""
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
        return len(pairs)

    def close(self):
        self.cut()
        self.listener.close()


class Browser:
    """One headless Chromium with one page, for one demo user."""

    def __init__(self, name, args):
        self.name = name
        self.url = None
        options = webdriver.ChromeOptions()
        options.binary_location = args.chromium
        for flag in CHROMIUM_FLAGS + list(getattr(args, "extra_flags", [])):
            options.add_argument(flag)
        # The page's console (the demo logs every request and event the SDK reports there) is the first
        # thing to read when a run fails.
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        started = time.monotonic()
        self.driver = webdriver.Chrome(service=Service(args.chromedriver), options=options)
        self.start_seconds = time.monotonic() - started
        self.driver.set_script_timeout(10)
        self.driver.set_page_load_timeout(20)
        self.console = []

    def open(self, url):
        self.url = url
        self.driver.get(url)
        # A relay that is down or does not serve the demo gives an error page, not an exception.
        if self.js("return typeof window.pkDemo") != "object":
            text = self.js("return document.body ? document.body.innerText.slice(0, 300) : ''")
            raise TestFailure(f"{self.name}: {url} is not the demo page (is the relay serving /demo/?): {text!r}")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def frames_decoded(self):
        result = self.driver.execute_async_script(FRAMES_SCRIPT)
        return result if isinstance(result, dict) else {}

    def frames_encoded(self):
        return self.driver.execute_async_script(ENCODED_SCRIPT) or 0

    def frame_sizes(self):
        result = self.driver.execute_async_script(SIZES_SCRIPT)
        return result if isinstance(result, dict) else {}

    def layers(self):
        return self.js("return window.pkDemo && window.pkDemo.layers ? window.pkDemo.layers() : {}") or {}

    def set_layer(self, user, stream_type):
        return self.driver.execute_async_script(SET_LAYER_SCRIPT, user, stream_type) or {}

    def encodings(self):
        return self.driver.execute_async_script(ENCODINGS_SCRIPT) or []

    def inbound_video(self):
        return self.driver.execute_async_script(INBOUND_SCRIPT)

    def relay_stats(self):
        return self.driver.execute_async_script(RELAY_STATS_SCRIPT)

    def snapshot(self):
        return self.js(SNAPSHOT_SCRIPT)

    def state(self):
        return self.js("return window.pkDemo ? window.pkDemo.state : null")

    def click(self, element_id):
        self.driver.find_element(By.ID, element_id).click()

    def collect_console(self):
        try:
            for entry in self.driver.get_log("browser"):
                self.console.append(f"{entry.get('level')} {entry.get('message')}")
        except Exception as exc:  # a browser that died cannot be asked
            self.console.append(f"(console unavailable: {exc})")
        return self.console

    def diagnostics(self):
        info = {"url": self.url, "browserStartSeconds": round(self.start_seconds, 2)}
        try:
            info["page"] = self.snapshot()
        except Exception as exc:
            info["page"] = f"(unavailable: {exc})"
        info["console"] = self.collect_console()[-80:]
        return info

    def screenshot(self, directory):
        try:
            os.makedirs(directory, exist_ok=True)
            self.driver.save_screenshot(os.path.join(directory, f"{self.name}.png"))
        except Exception:
            pass

    def quit(self):
        try:
            self.driver.quit()
        except Exception:
            pass


class Run:
    def __init__(self, args):
        self.args = args
        self.started = time.monotonic()
        self.deadline = self.started + args.timeout
        self.browsers = {}
        self.summary = {"ok": False, "base": args.base, "pk": args.pk, "simulcast": args.simulcast,
                        "reconnect": args.reconnect, "timings": {}, "frames": {}}
        self.proxy = None
        if args.reconnect:
            parsed = urllib.parse.urlparse(args.base)
            self.proxy = ControlProxy(parsed.hostname, parsed.port or 80)

    def proxied(self):
        """The page query that sends a page's control channel through the proxy (with --reconnect)."""
        return {"relay": f"ws://127.0.0.1:{self.proxy.port}/rtc"} if self.proxy else {}

    def simulcast_diagnostics(self):
        """What each side of the dual stream saw: encodings sent, relay counters, sizes decoded."""
        checks = {"anchorS": {"encodings": Browser.encodings, "relayStats": Browser.relay_stats},
                  "viewerS": {"layers": Browser.layers, "frameSizes": Browser.frame_sizes,
                              "inboundVideo": Browser.inbound_video, "relayStats": Browser.relay_stats}}
        for name, calls in checks.items():
            browser = self.browsers.get(name)
            if browser is None:
                continue
            for key, call in calls.items():
                try:
                    self.summary["diagnostics"][name][key] = call(browser)
                except Exception as exc:
                    self.summary["diagnostics"][name][key] = f"(unavailable: {exc})"

    def elapsed(self):
        return time.monotonic() - self.started

    def mark(self, name, since=None):
        value = time.monotonic() - (since if since is not None else self.started)
        self.summary["timings"][name] = round(value, 2)
        return value

    def page_url(self, page, room, user, **extra):
        base = self.args.base.rstrip("/") + "/" + self.args.demo_path.strip("/") + "/"
        query = {"room": room, "user": user, **extra}
        query.update(urllib.parse.parse_qsl(self.args.page_query))
        return base + page + "?" + urllib.parse.urlencode(query)

    def browser(self, name):
        browser = Browser(name, self.args)
        self.browsers[name] = browser
        self.summary["timings"][f"{name}BrowserStart"] = round(browser.start_seconds, 2)
        return browser

    def wait(self, what, check, browser=None, interval=0.25):
        """Polls check() until it returns a truthy value; fails on the deadline or a dead page."""
        while True:
            value = check()
            if value:
                return value
            if browser is not None:
                state = browser.state()
                if state in DEAD_STATES:
                    raise TestFailure(f"{browser.name}: page is '{state}' while waiting for {what}")
            if time.monotonic() > self.deadline:
                raise TestFailure(f"timed out after {self.args.timeout} s waiting for {what}")
            time.sleep(interval)

    def wait_frames(self, viewer, publisher, what, minimum, baseline=0):
        """Waits until viewer decoded more than minimum frames of publisher (beyond baseline);
        returns the time to the first new frame and to enough frames."""
        since = time.monotonic()
        first = None
        minimum += baseline
        while True:
            count = viewer.frames_decoded().get(publisher, 0)
            if count > baseline and first is None:
                first = time.monotonic() - since
            if count > minimum:
                self.summary["frames"][what] = count
                return first, time.monotonic() - since
            state = viewer.state()
            if state in DEAD_STATES:
                raise TestFailure(f"{viewer.name}: page is '{state}' while waiting for frames of {publisher}")
            if time.monotonic() > self.deadline:
                self.summary["frames"][what] = count
                raise TestFailure(f"timed out after {self.args.timeout} s: {viewer.name} decoded {count} "
                                  f"frames of {publisher}, needed more than {minimum}")
            time.sleep(0.25)

    def start_anchor(self, name, room, user, **extra):
        """Opens an anchor page and waits until it is live and encodes video."""
        anchor = self.browser(name)
        since = time.monotonic()
        anchor.open(self.page_url("anchor.html", room, user, **extra))
        self.wait(f"{user} to publish (state 'live')", lambda: anchor.state() == "live", anchor)
        self.mark(f"{name}Live", since)
        self.wait(f"{user} to encode video", lambda: anchor.frames_encoded() > 0, anchor)
        return anchor

    def phase_one(self):
        frames = self.args.frames
        anchor_a = self.start_anchor("anchorA", "demo-a", "anchor-a", **self.proxied())
        viewer = self.browser("viewer1")
        since = time.monotonic()
        viewer.open(self.page_url("audience.html", "demo-a", "viewer-1", **self.proxied()))
        first, enough = self.wait_frames(viewer, "anchor-a", "viewer1.anchor-a", frames)
        self.summary["timings"]["viewer1FirstFrameOfAnchorA"] = round(first, 2)
        self.summary["timings"]["viewer1FramesOfAnchorA"] = round(enough, 2)
        self.mark("viewer1PageToFrames", since)
        tiles = viewer.snapshot()["tiles"]
        if "anchor-a" not in tiles:
            raise TestFailure(f"viewer-1 decodes anchor-a but shows no tile for it (tiles: {tiles})")
        return anchor_a, viewer

    def watch_switch(self, viewer, publisher, stream_type, resized, what):
        """Switches viewer to layer stream_type of publisher and follows the switch.

        Waits until the page reports the layer delivered and resized(width) holds for the
        decoded width, then keeps watching for AFTER_SWITCH_SECONDS. Meanwhile the frame
        counter must never stand still for MAX_STALL_SECONDS. Returns the figures for the
        summary.
        """
        name = "big" if stream_type == BIG else "small"
        start_frames = viewer.frames_decoded().get(publisher, 0)
        since = time.monotonic()
        answer = viewer.set_layer(publisher, stream_type)
        acknowledged = time.monotonic() - since
        if "error" in answer:
            raise TestFailure(f"setRemoteVideoStreamType {name} for {publisher} failed: {answer['error']}")
        video = [t for t in answer.get("result", {}).get("tracks", []) if t.get("kind") == "video"]
        figures = {"requestSeconds": round(acknowledged, 2),
                   "resultVideoStreamType": video[0].get("videoStreamType") if video else None}

        last_frames, last_change = start_frames, since
        max_stall = 0.0
        layer_at = size_at = None
        size = None
        while True:
            now = time.monotonic()
            frames = viewer.frames_decoded().get(publisher, 0)
            if frames > last_frames:
                last_frames, last_change = frames, now
            stall = now - last_change
            max_stall = max(max_stall, stall)
            if stall > MAX_STALL_SECONDS:
                raise TestFailure(f"{viewer.name}: frames of {publisher} stalled for {stall:.1f} s at "
                                  f"{frames} while switching to {name} (layers {viewer.layers()}, "
                                  f"size {viewer.frame_sizes().get(publisher)})")
            if layer_at is None and viewer.layers().get(publisher) == stream_type:
                layer_at = now - since
            if size_at is None:
                current = viewer.frame_sizes().get(publisher)
                if current and resized(current["width"]):
                    size, size_at = current, now - since
            if layer_at is not None and size_at is not None and now - since >= max(layer_at, size_at) + AFTER_SWITCH_SECONDS:
                break
            if now > self.deadline:
                raise TestFailure(
                    f"timed out after {self.args.timeout} s switching {viewer.name} to the {name} layer of "
                    f"{publisher}: delivered layer {viewer.layers().get(publisher)}, decoded size "
                    f"{viewer.frame_sizes().get(publisher)}, frames {frames} (were {start_frames})")
            time.sleep(0.2)
        figures.update({
            "layerDeliveredSeconds": round(layer_at, 2),
            "resizedSeconds": round(size_at, 2),
            "size": size,
            "framesDuringSwitch": last_frames - start_frames,
            "maxStallSeconds": round(max_stall, 2),
        })
        self.summary["frames"][what] = last_frames
        return figures

    def phase_simulcast(self):
        """anchor-s publishes big + small by simulcast; viewer-s starts small, switches to big and back."""
        frames = self.args.frames
        publisher = "anchor-s"
        report = self.summary["dualStream"] = {}
        anchor = self.start_anchor("anchorS", "demo-s", publisher, simulcast="1")
        status = anchor.js("return document.getElementById('status').textContent")
        if "simulcast: big + small" not in status:
            raise TestFailure(f"anchor-s status does not show simulcast: {status!r}")
        viewer = self.browser("viewerS")
        since = time.monotonic()
        viewer.open(self.page_url("audience.html", "demo-s", "viewer-s", layer="small"))

        # Small first: the page joined with autoSubscribeVideoStreamType 1.
        first, enough = self.wait_frames(viewer, publisher, "viewerS.anchor-s.small", frames)
        self.summary["timings"]["viewerSFirstFrameOfSmall"] = round(first, 2)
        self.summary["timings"]["viewerSFramesOfSmall"] = round(enough, 2)
        self.wait("viewer-s to report the small layer of anchor-s delivered",
                  lambda: viewer.layers().get(publisher) == SMALL, viewer)
        small = self.wait("a decoded size of anchor-s", lambda: viewer.frame_sizes().get(publisher), viewer)
        report["small"] = small
        report["anchorEncodings"] = anchor.encodings()
        sent = {e.get("rid"): e for e in report["anchorEncodings"]}
        big_sent = sent.get("f", {}).get("frameWidth")
        if big_sent and small["width"] * 1.5 > big_sent:
            raise TestFailure(f"viewer-s decodes anchor-s at {small['width']}x{small['height']} with the small layer, "
                              f"but the big encoding is only {big_sent} wide: is it the small layer?")
        if viewer.js(f"return !!document.querySelector('[data-user-id=\"{publisher}\"] .layer-btn')") is not True:
            raise TestFailure("viewer-s's tile of anchor-s has no big/small button")

        # Up to big: the width must grow (the small layer is scaled down by 2).
        report["toBig"] = self.watch_switch(
            viewer, publisher, BIG, lambda width: width >= small["width"] * 1.5, "viewerS.anchor-s.big")
        big = report["toBig"]["size"]
        # And back to small.
        report["toSmall"] = self.watch_switch(
            viewer, publisher, SMALL, lambda width: width * 1.5 <= big["width"], "viewerS.anchor-s.smallAgain")
        for key, figures in (("ToBig", report["toBig"]), ("ToSmall", report["toSmall"])):
            self.summary["timings"][f"switch{key}Layer"] = figures["layerDeliveredSeconds"]
            self.summary["timings"][f"switch{key}Resized"] = figures["resizedSeconds"]
        self.mark("simulcastPhase", since)

        # The next phase needs no more of these two; fewer browsers keep the machine responsive.
        for name in ("viewerS", "anchorS"):
            self.browsers.pop(name).quit()

    def phase_pk(self, anchor_a, viewer):
        frames = self.args.frames
        anchor_b = self.start_anchor("anchorB", "demo-b", "anchor-b")

        # anchor-a invites anchor-b through the page, as a person would.
        self.wait("the Invite button", lambda: anchor_a.js("return !document.getElementById('invite-btn').disabled"), anchor_a)
        anchor_a.js("document.getElementById('invite-user').value = 'anchor-b';"
                    "document.getElementById('invite-room').value = 'demo-b';")
        since = time.monotonic()
        anchor_a.click("invite-btn")
        self.wait("anchor-b's invitation banner",
                  lambda: anchor_b.js("return !document.getElementById('incoming').hidden"), anchor_b)
        anchor_b.click("accept-btn")
        self.wait("both anchors linked",
                  lambda: anchor_a.js("return pkDemo.pkState") == "linked"
                  and anchor_b.js("return pkDemo.pkState") == "linked", anchor_a)
        self.mark("inviteToLinked", since)

        first, enough = self.wait_frames(viewer, "anchor-b", "viewer1.anchor-b", frames)
        self.summary["timings"]["viewer1FirstFrameOfAnchorB"] = round(first, 2)
        self.summary["timings"]["viewer1FramesOfAnchorB"] = round(enough, 2)
        self.mark("inviteToViewerFramesOfAnchorB", since)
        _, partner_b = self.wait_frames(anchor_a, "anchor-b", "anchorA.anchor-b", frames)
        _, partner_a = self.wait_frames(anchor_b, "anchor-a", "anchorB.anchor-a", frames)
        self.mark("inviteToPartnersDecoded", since)
        return anchor_b

    def phase_reconnect(self, anchor_a, anchor_b, viewer):
        """Cuts the control connections of anchor-a and viewer-1 during the PK; everything must come back."""
        frames = self.args.frames
        before = {name: len(b.snapshot()["reconnects"]) for name, b in (("anchorA", anchor_a), ("viewer1", viewer))}
        b_frames = anchor_b.frames_decoded().get("anchor-a", 0)
        since = time.monotonic()
        cut = self.proxy.cut()
        if cut < 2:
            raise TestFailure(f"the proxy carried {cut} control connections; anchor-a and viewer-1 should both use it")
        self.summary["reconnection"] = {"connectionsCut": cut}

        def reconnected(browser, name):
            events = browser.snapshot()["reconnects"][before[name]:]
            states = [e.get("state") for e in events]
            return "reconnecting" in states and any(e.get("reason") == "reconnected" for e in events) and events
        for name, browser in (("anchorA", anchor_a), ("viewer1", viewer)):
            events = self.wait(f"{browser.name} to report reconnecting, then reconnected",
                               lambda: reconnected(browser, name), browser)
            self.summary["reconnection"][name] = events
        self.mark("cutToReconnected", since)
        self.wait("anchor-a live again", lambda: anchor_a.state() == "live", anchor_a)
        self.wait("viewer-1 receiving again", lambda: viewer.state() == "receiving", viewer)
        self.wait("the PK link restored on both anchors",
                  lambda: anchor_a.js("return pkDemo.pkState") == "linked"
                  and anchor_b.js("return pkDemo.pkState") == "linked", anchor_a)
        self.mark("cutToLinkedAgain", since)
        # The viewer's new receive transport counts from zero; the baseline is taken now.
        for publisher in ("anchor-a", "anchor-b"):
            baseline = viewer.frames_decoded().get(publisher, 0)
            self.wait_frames(viewer, publisher, f"viewer1.{publisher}.afterReconnect", frames, baseline)
        self.wait_frames(anchor_b, "anchor-a", "anchorB.anchor-a.afterReconnect", frames, b_frames)
        self.mark("cutToFramesAgain", since)
        tiles = viewer.snapshot()["tiles"]
        if not {"anchor-a", "anchor-b"} <= set(tiles):
            raise TestFailure(f"after reconnecting viewer-1 shows tiles {tiles}, not anchor-a and anchor-b")

    def phase_hangup(self, anchor_a, anchor_b, viewer):
        # Hanging up ends the link: the partner's tile leaves the viewer's page.
        since = time.monotonic()
        anchor_a.click("hangup-btn")
        self.wait("both anchors back to idle",
                  lambda: anchor_a.js("return pkDemo.pkState") == "idle"
                  and anchor_b.js("return pkDemo.pkState") == "idle", anchor_a)
        self.wait("anchor-b's tile to leave viewer-1's page",
                  lambda: "anchor-b" not in viewer.snapshot()["tiles"], viewer)
        self.mark("hangUpToTileRemoved", since)
        if "anchor-a" not in viewer.snapshot()["tiles"]:
            raise TestFailure("viewer-1 lost anchor-a's tile when the PK ended")

    def phase_guide(self):
        """Runs the five-minute guide of docs/SDK.md in a page of its own (rooms guide-a, guide-b)."""
        page = self.browser("guide")
        since = time.monotonic()
        page.driver.set_script_timeout(max(10, self.deadline - time.monotonic()))
        # The demo's index page: same origin as /sdk/pkrelay.js and /demo/token, no demo code of its own.
        page.url = self.args.base.rstrip("/") + "/" + self.args.demo_path.strip("/") + "/index.html"
        page.driver.get(page.url)
        control = self.args.base.replace("http", "ws", 1).rstrip("/") + "/rtc"
        result = page.driver.execute_async_script(GUIDE_SCRIPT, control) or {}
        self.summary["guide"] = {k: result.get(k) for k in ("error", "code", "videos", "shownFromRemoteUsers", "videosAfterHangup", "invitationStates", "msg")}
        if result.get("error"):
            raise TestFailure(f"the guide's code failed: {result.get('code')} {result['error']}")
        if result.get("acceptError") is not None or result.get("hangUpError") is not None:
            raise TestFailure(f"the guide's accept or hang-up failed: {result.get('acceptError')} {result.get('hangUpError')}")
        if any(result.get("mutedAfterUnmute", [True])):
            raise TestFailure(f"the guide's unmute button left videos muted: {result.get('mutedAfterUnmute')}")
        if sorted(result.get("videos", [])) != ["anchor-a", "anchor-b"]:
            raise TestFailure(f"the guide's viewer shows {result.get('videos')}, not anchor-a and anchor-b")
        decoded = {s["userId"]: s["framesDecoded"] for s in result.get("stats", [])}
        if any(decoded.get(user, 0) <= self.args.frames for user in ("anchor-a", "anchor-b")):
            raise TestFailure(f"the guide's viewer decoded {decoded}, needed more than {self.args.frames} frames of each anchor")
        if (result.get("msg") or {}).get("message") != "3:2":
            raise TestFailure(f"the guide's room message did not reach the linked room: {result.get('msg')}")
        if result.get("videosAfterHangup") != ["anchor-a"]:
            raise TestFailure(f"after the guide's hang-up the viewer shows {result.get('videosAfterHangup')}")
        self.summary["frames"]["guide"] = decoded
        self.mark("guide", since)
        self.browsers.pop("guide").quit()

    def phase_pk_start(self, anchor_a, anchor_b, viewer1):
        """Measures the PK start --pk-start times: from anchor-b's Accept to the first decoded
        frame of the partner at a viewer of each room and at each anchor, against the relay's
        onForwardStreamFirstKeyframe; and how clean each partner track starts."""
        viewer2 = self.browser("viewer2")
        viewer2.open(self.page_url("audience.html", "demo-b", "viewer-2"))
        self.wait_frames(viewer2, "anchor-b", "viewer2.anchor-b", self.args.frames)
        watchers = (("viewer1", viewer1, "anchor-b"), ("viewer2", viewer2, "anchor-a"),
                    ("anchorA", anchor_a, "anchor-b"), ("anchorB", anchor_b, "anchor-a"))
        runs = []
        for run in range(self.args.pk_start):
            # Each run starts unlinked, with the partners' tiles gone.
            if anchor_a.js("return pkDemo.pkState") == "linked":
                anchor_a.click("hangup-btn")
            self.wait("both anchors idle", lambda: anchor_a.js("return pkDemo.pkState") == "idle"
                      and anchor_b.js("return pkDemo.pkState") == "idle", anchor_a)
            for name, browser, partner in watchers:
                self.wait(f"{partner}'s tile to leave {name}", lambda: partner not in browser.snapshot()["tiles"], browser)
            time.sleep(1.0)
            keyframes_before = {name: len(b.js("return pkDemo.firstKeyframes")) for name, b in (("anchorA", anchor_a), ("anchorB", anchor_b))}
            self.wait("the Invite button", lambda: anchor_a.js("return !document.getElementById('invite-btn').disabled"), anchor_a)
            anchor_a.js("document.getElementById('invite-user').value = 'anchor-b';"
                        "document.getElementById('invite-room').value = 'demo-b';")
            anchor_a.click("invite-btn")
            self.wait("anchor-b's invitation banner", lambda: not anchor_b.js("return document.getElementById('incoming').hidden"), anchor_b)
            anchor_b.js("pkDemo.acceptedAt = null;")
            anchor_b.click("accept-btn")
            accepted = self.wait("the accept time", lambda: anchor_b.js("return pkDemo.acceptedAt"), anchor_b)
            result = {"run": run + 1}
            for name, browser, partner in watchers:
                seen = self.wait(f"{name}'s first frame of {partner}", lambda: browser.js("return pkDemo.firstFrames()").get(partner), browser)
                result[name] = seen - accepted
                # Where the time went at this page: the relay's offer for the partner's track
                # arriving, and the page's answer going out (from the SDK's log).
                steps = negotiation_steps(browser.js("return pkDemo.log"), accepted)
                if steps:
                    result[f"{name}OfferMs"], result[f"{name}AnswerMs"] = steps
            time.sleep(1.5)
            # How the partner's track started: loss, NACKs and keyframe requests in its first moments.
            for name, browser, partner in watchers:
                stats = [s for s in browser.js("return pkDemo.client.getRemoteVideoStats()") if s.get("userId") == partner and s.get("active")]
                if stats:
                    s = stats[-1]
                    result[f"{name}Start"] = {k: s.get(k) for k in ("packetsLost", "nackCount", "pliCount", "firCount", "keyFramesDecoded")}
            for name, browser in (("anchorA", anchor_a), ("anchorB", anchor_b)):
                events = browser.js("return pkDemo.firstKeyframes")[keyframes_before[name]:]
                result[f"{name}RelayFirstKeyframeMs"] = [e.get("elapsedMs") for e in events]
            # The relay's time to watchable counts to the first keyframe sent to a subscriber
            # that could use it: it should match the first page of the target room to show the
            # partner, less that keyframe's trip, decoding and the click's own way to the relay.
            for source, targets in (("anchorA", ("viewer2", "anchorB")), ("anchorB", ("viewer1", "anchorA"))):
                relay = result[f"{source}RelayFirstKeyframeMs"]
                if relay:
                    result[f"{source}RelayToPageMs"] = min(result[t] for t in targets) - relay[0]
            runs.append(result)
            print(f"PK start run {run + 1}: {json.dumps(result)}", file=sys.stderr, flush=True)
        unclean = {f"run {r['run']} {n}": r[f"{n}Start"] for r in runs for n in ("viewer1", "viewer2", "anchorA", "anchorB")
                   if any(r.get(f"{n}Start", {}).get(k) for k in ("packetsLost", "nackCount", "pliCount", "firCount"))}
        if unclean:
            raise TestFailure(f"a partner track started with loss or keyframe requests on loopback: {unclean}")
        viewers = sorted(r[n] for r in runs for n in ("viewer1", "viewer2"))
        anchors = sorted(r[n] for r in runs for n in ("anchorA", "anchorB"))
        answers = sorted(r[f"{n}AnswerMs"] for r in runs for n in ("viewer1", "viewer2") if f"{n}AnswerMs" in r)
        agreement = [r[k] for r in runs for k in ("anchorARelayToPageMs", "anchorBRelayToPageMs") if k in r]

        def percentile(values, p):
            return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else None
        self.summary["pkStart"] = {
            "runs": runs, "viewerFirstFrameMs": {"p50": percentile(viewers, 50), "p95": percentile(viewers, 95), "max": viewers[-1] if viewers else None},
            "anchorFirstFrameMs": {"p50": percentile(anchors, 50), "p95": percentile(anchors, 95), "max": anchors[-1] if anchors else None},
            "viewerAnswerSentMs": {"p50": percentile(answers, 50), "p95": percentile(answers, 95)},
            "relayToPageMs": {"min": min(agreement, default=None), "max": max(agreement, default=None)},
        }
        self.browsers.pop("viewer2").quit()

    def run(self):
        anchor_a, viewer = self.phase_one()
        if self.args.simulcast:
            self.phase_simulcast()
        if self.args.pk:
            anchor_b = self.phase_pk(anchor_a, viewer)
            if self.args.pk_start:
                self.phase_pk_start(anchor_a, anchor_b, viewer)
            if self.args.reconnect:
                if anchor_a.js("return pkDemo.pkState") != "linked":
                    raise TestFailure("the PK-start runs left the anchors unlinked")
                self.phase_reconnect(anchor_a, anchor_b, viewer)
            self.phase_hangup(anchor_a, anchor_b, viewer)
        if self.args.guide:
            self.phase_guide()
        if self.args.admin:
            self.check_subscriber_feedback()
        self.summary["ok"] = True

    def check_subscriber_feedback(self):
        """The Chromium viewers kept the transport-wide sequence number the relay offers them:
        the relay read their transport-wide feedback, estimates their downlinks from it, and
        probed them (on their RTX streams) for headroom."""
        samples = relay_samples(self.args.admin, ("pkrelay_transport_feedback_received_total", "pkrelay_subscriber_estimates{",
                                                  "pkrelay_probe_", "pkrelay_paced_"))
        self.summary["subscriberFeedback"] = samples
        if samples.get("pkrelay_transport_feedback_received_total", 0) <= 0:
            raise TestFailure(f"the relay read no transport-wide feedback from the Chromium viewers: {samples}")
        if samples.get("pkrelay_probe_clusters_total", 0) <= 0:
            raise TestFailure(f"the relay sent the Chromium viewers no probe: {samples}")

    def close(self, failed):
        if failed:
            self.summary["diagnostics"] = {name: b.diagnostics() for name, b in self.browsers.items()}
            self.simulcast_diagnostics()
            if self.args.admin:
                self.summary["diagnostics"]["relayMetrics"] = relay_metrics(self.args.admin)
        if self.args.screenshots:
            for browser in self.browsers.values():
                browser.screenshot(self.args.screenshots)
        for browser in self.browsers.values():
            browser.quit()
        if self.proxy:
            self.proxy.close()
        self.summary["timings"]["total"] = round(self.elapsed(), 2)


def relay_samples(admin, prefixes):
    """The values of the relay's /metrics samples whose names start with one of `prefixes`."""
    with urllib.request.urlopen(admin.rstrip("/") + "/metrics", timeout=3) as response:
        text = response.read().decode("utf-8", "replace")
    samples = {}
    for line in text.splitlines():
        if line.startswith(prefixes):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


def relay_metrics(admin):
    """The relay's media counters from its admin port: drops by reason, keyframe requests."""
    wanted = ("pkrelay_dropped_packets_total", "pkrelay_keyframe_requests", "pkrelay_packets_",
              "pkrelay_streams", "pkrelay_subscriptions")
    try:
        with urllib.request.urlopen(admin.rstrip("/") + "/metrics", timeout=3) as response:
            text = response.read().decode("utf-8", "replace")
    except Exception as exc:
        return f"(unavailable: {exc})"
    return [line for line in text.splitlines() if line.startswith(wanted)]


def negotiation_steps(log, accepted_ms):
    """From a demo page's log (lines starting with the UTC time of day, HH:MM:SS.mmm): the
    milliseconds from `accepted_ms` (epoch) to the first onTransportOffer received after it and
    to the answer sent for it, or None when the log does not show both."""
    day = 86_400_000
    accepted = accepted_ms % day
    offer = answer = None
    for line in log:
        try:
            hours, minutes, rest = line[:12].split(":")
            at = ((int(hours) * 60 + int(minutes)) * 60_000 + round(float(rest) * 1000))
        except ValueError:
            continue
        elapsed = (at - accepted) % day
        if elapsed > day // 2:
            continue  # before the accept
        if offer is None and "<- onTransportOffer" in line:
            offer = elapsed
        elif offer is not None and "-> answerTransportOffer" in line:
            answer = elapsed
            break
    return (offer, answer) if answer is not None else None


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="relay origin serving /demo/, e.g. http://127.0.0.1:7700")
    parser.add_argument("--timeout", type=float, default=60, help="seconds for the whole run (default 60)")
    parser.add_argument("--pk", action="store_true", help="also run the PK phase (anchor-b, invite, accept, hang up)")
    parser.add_argument("--simulcast", action="store_true",
                        help="also run the simulcast phase (anchor-s sends big + small, viewer-s switches layers)")
    parser.add_argument("--reconnect", action="store_true",
                        help="with --pk: cut the control connections of anchor-a and viewer-1 during the PK "
                             "(through a proxy of this script) and check that the SDK restores everything")
    parser.add_argument("--guide", action="store_true",
                        help="also run the five-minute guide of docs/SDK.md in a page of its own (rooms guide-a, guide-b)")
    parser.add_argument("--admin", help="relay admin origin, e.g. http://127.0.0.1:7710: on failure the summary "
                                        "carries its /metrics drop and traffic counters")
    parser.add_argument("--frames", type=int, default=30, help="decoded frames required per check (default 30)")
    parser.add_argument("--pk-start", type=int, default=0, metavar="RUNS",
                        help="with --pk: measure the PK start RUNS times (accept to each viewer's first "
                             "decoded partner frame, against the relay's onForwardStreamFirstKeyframe)")
    parser.add_argument("--demo-path", default="/demo/", help="where the demo pages are (default /demo/)")
    parser.add_argument("--page-query", default="",
                        help="extra query for every page, e.g. 'relay=ws://127.0.0.1:7870/rtc' when the "
                             "pages are served apart from the relay")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--screenshots", help="directory for a PNG of every page at the end")
    return parser.parse_args()


def main():
    args = parse_args()
    run = Run(args)

    # Two guards against hanging: SIGALRM interrupts a WebDriver call that blocks past the
    # deadline (the browsers are then quit normally), and a watchdog thread ends the process
    # if even quitting does not return.
    def on_alarm(signum, frame):
        raise TestFailure(f"global timeout of {args.timeout} s reached")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, args.timeout + 5)

    def watchdog():
        print(json.dumps({"ok": False, "error": "watchdog: the run did not finish; exiting"}), flush=True)
        os._exit(1)

    guard = threading.Timer(args.timeout + 45, watchdog)
    guard.daemon = True
    guard.start()

    failed = True
    try:
        run.run()
        failed = False
    except WebDriverException as exc:
        # The message without chromedriver's native stack trace, which says nothing here.
        run.summary["error"] = f"{type(exc).__name__}: {exc.msg}"
    except (TestFailure, OSError) as exc:
        run.summary["error"] = f"{type(exc).__name__}: {exc}"
    except Exception as exc:
        run.summary["error"] = f"unexpected {type(exc).__name__}: {exc}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        try:
            run.close(failed)
        except TestFailure:
            pass
    print(json.dumps(run.summary, indent=2))
    sys.exit(0 if run.summary["ok"] else 1)


if __name__ == "__main__":
    main()
