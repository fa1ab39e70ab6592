#!/usr/bin/env python3
"""Automatic layer fallback and recovery as a Chromium viewer sees it.

A simulcast anchor (--layers 2: the SDK's default encodings, q at 200 kbit/s and f at
1.2 Mbit/s; --layers 3: q at 150 kbit/s, h at 500 kbit/s, f at 1.2 Mbit/s) publishes to a relay
whose announced address is an impairment relay (`pkrelay-impair`), and a Chromium viewer
(audience.html with `fallback=2`: lower layers, then audio only) watches it through the same
impairment relay. The test caps the viewer's downlink by writing to the impairment relay's
command pipe (--impair-commands) and follows, from the viewer's page, the relay's
`onSimulcastSubscribeFallback` events and the browser's own inbound statistics:

1. settle: uncapped, the viewer receives the big layer, and the anchor sends nothing on its
   lower encodings (nobody receives them: `onSubscribedLayersChanged`, and the SDK turns them off);
2. --cap (600 kbit/s with two layers, 900 kbit/s with three): the relay moves the viewer down a
   layer (small of two, medium of three) within --down-limit seconds of the cap, the anchor's
   encoding for it runs again within 2 s, and the viewer goes on decoding (the browser's freeze
   time over the phase at most --freeze-limit seconds);
3. the cap lifts: the big layer comes back within --up-limit seconds (of the lift, or of the
   anchor's top encoding flowing again when the capped downlink, which also carries the anchor's
   feedback, made Chromium stop it: the relay moves no viewer onto an encoding that is not flowing);
4. --floor (below the small layer and audio): the video pauses (`afterVideoEnabled` false) and
   audio goes on, with under 2 % of its packets lost once paused;
5. the cap lifts: video resumes;
6. the viewer's <video> element is made 160x90 with the SDK's `observeRenderedSize` on it: the
   relay moves it to the small layer (reason 100, the subscriber's request), matched against
   the sizes Chromium's VP8 keyframes state; made 1280x720, the big layer comes back;
7. the anchor's uplink is capped (--uplink-cap): Chromium suspends its top encoding, and the
   relay moves the viewer to a lower one that still flows (reason 101) instead of leaving it
   frozen on the top one; when the cap lifts and the top encoding flows again, the viewer goes
   back to it.

Prints one JSON summary with every measured time and exits 0 on success, 1 on failure.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_demo_test as demo  # noqa: E402  (the same Chromium flags and page driver)
from congestion_feedback_test import Publisher, Failure  # noqa: E402

# Sizes the viewer's first <video> element (the anchor's tile) and, the first time, starts the
# SDK's observeRenderedSize on it.
RESIZE_SCRIPT = """
const [roomId, userId, width, height] = arguments;
const done = arguments[arguments.length - 1];
const video = document.querySelector('video');
if (!video) { done('no video element'); return; }
Object.assign(video.style, {width: `${width}px`, height: `${height}px`, maxWidth: 'none', maxHeight: 'none', flex: 'none'});
try {
  if (!window.renderedSizeStop) window.renderedSizeStop = window.pkDemo.client.rooms.get(roomId).observeRenderedSize(userId, video);
  done(true);
} catch (e) { done(String(e)); }
"""

# The viewer's inbound audio and video, from its receiving peer connection.
INBOUND_SCRIPT = """
const done = arguments[arguments.length - 1];
const pc = window.pkDemo && window.pkDemo.peerConnections.receive;
if (!pc) { done(null); return; }
pc.getStats().then((report) => {
  const out = {audio: {received: 0, lost: 0}, video: {decoded: 0, freezes: 0, freezeSeconds: 0, width: 0}};
  report.forEach((s) => {
    if (s.type !== 'inbound-rtp') return;
    if (s.kind === 'audio') { out.audio.received += s.packetsReceived || 0; out.audio.lost += Math.max(s.packetsLost || 0, 0); }
    if (s.kind === 'video') {
      out.video.decoded += s.framesDecoded || 0;
      out.video.freezes += s.freezeCount || 0;
      out.video.freezeSeconds += s.totalFreezesDuration || 0;
      out.video.width = Math.max(out.video.width, s.frameWidth || 0);
    }
  });
  done(out);
}, (e) => done({error: String(e)}));
"""


class Viewer:
    def __init__(self, base, room, args, commands):
        self.commands = commands
        self.browser = demo.Browser("fallback-viewer", args)
        self.browser.open(f"{base.rstrip('/')}/demo/audience.html?room={room}&user=fallback-viewer&fallback=2")

    def inbound(self):
        value = self.browser.driver.execute_async_script(INBOUND_SCRIPT)
        return value if value and "error" not in value else None

    def fallbacks(self):
        return self.browser.js("return window.pkDemo.fallbacks || []") or []

    def now_ms(self):
        return self.browser.js("return Date.now()")

    def wait_for(self, predicate, seconds, what):
        """Polls the page's fallback events until one satisfies `predicate`; returns it with its delay."""
        start_ms = self.now_ms()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for event in self.fallbacks():
                if event["at"] >= start_ms and predicate(event):
                    return event, (event["at"] - start_ms) / 1000
            time.sleep(0.1)
        command(self.commands, "stats")
        estimates = [t.get("bandwidthEstimate") for t in (self.relay_stats() or {}).get("transports", [])]
        raise Failure(f"no {what} within {seconds} s; events: {self.fallbacks()}; the relay's estimate: {estimates}; "
                      f"subscribed: {(self.relay_stats() or {}).get('subscribed')}; inbound: {self.inbound()}")

    def acknowledged(self):
        """What reached the viewer lately by its feedback, bit/s, as the relay's getStats says."""
        for transport in (self.relay_stats() or {}).get("transports", []):
            estimate = transport.get("bandwidthEstimate") or {}
            if estimate.get("acknowledgedBps"):
                return estimate["acknowledgedBps"]
        return 0

    def relay_stats(self):
        return self.browser.driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; window.pkDemo.client.getStats().then(done, (e) => done(null));")

    def quit(self):
        self.browser.quit()


# Frames each of the anchor's encodings has sent, by rid.
FRAMES_SENT_SCRIPT = """
const done = arguments[arguments.length - 1];
window.pkDemo.encodings().then((list) => done(Object.fromEntries(list.map((e) => [e.rid, e.framesSent || 0]))), (e) => done({}));
"""


def frames_sent(anchor, rid):
    return (anchor.browser.driver.execute_async_script(FRAMES_SENT_SCRIPT) or {}).get(rid) or 0


def command(path, line):
    with open(path, "w") as pipe:
        pipe.write(line + "\n")


def camera_file(directory, size="640x360"):
    """A y4m clip for the anchor's fake camera: Chromium's own synthetic picture is so simple that
    its encoder never needs more than about 300 kbit/s, while a real camera fills the big layer's
    1.2 Mbit/s. Two seconds of a moving test pattern under heavy noise do too (Chromium loops it).
    Three layers need 1280x720: libwebrtc allows a 640x360 source two simulcast layers, and with
    three it stopped the top encoding for good once the middle one was turned back on."""
    path = os.path.join(directory, "camera.y4m")
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={size}:rate=30,noise=alls=30:allf=t",
                    "-t", "2", "-pix_fmt", "yuv420p", path], check=True)
    return path


def run(args, summary, browser_args):
    report = summary[f"fallback{args.layers}"] = {"layers": args.layers, "capBitsPerSecond": args.cap, "floorBitsPerSecond": args.floor}
    # The layer the cap should leave the viewer on, the encoding that carries it, and the anchor's
    # encodings below the top (rids of the SDK's two- and three-layer simulcast).
    expected, needed_rid, lower = (1, "q", ["q"]) if args.layers == 2 else (2, "h", ["q", "h"])
    # Only the viewer's downlink is capped here: the anchor's uplink is left free.
    command(args.impair_commands, "both rate=0")
    scratch = tempfile.mkdtemp()
    anchor_args = argparse.Namespace(**vars(browser_args), extra_flags=[f"--use-file-for-fake-video-capture={camera_file(scratch, '640x360' if args.layers == 2 else '1280x720')}"])
    room = f"cc-fallback{args.layers}"
    anchor = Publisher("fallback-anchor", args.capped, room, anchor_args, simulcast=str(args.layers) if args.layers == 3 else "1")
    viewer = None
    try:
        anchor.wait_live(time.monotonic() + 30)
        viewer = Viewer(args.capped, room, browser_args, args.impair_commands)
        # Settle: decoding the big layer, with an estimate that has had its probes.
        deadline = time.monotonic() + 30
        while True:
            stats = viewer.inbound()
            if stats and stats["video"]["decoded"] > 30:
                break
            if time.monotonic() > deadline:
                raise Failure(f"the viewer decoded nothing: {stats}; fallbacks {viewer.fallbacks()}; relay {viewer.relay_stats()}")
            time.sleep(0.25)
        # The anchor's encoder ramps up on its own estimate: wait until the big layer runs at
        # its rate, so that the cap below is below it.
        deadline = time.monotonic() + 40
        while viewer.acknowledged() < args.big_rate:
            if time.monotonic() > deadline:
                raise Failure(f"the viewer never received {args.big_rate} bit/s: {viewer.relay_stats()}")
            time.sleep(0.5)
        report["rampedAfterSeconds"] = round(time.monotonic() - deadline + 40, 1)
        time.sleep(args.settle_seconds)
        # Uncapped, the viewer ends up on the big layer (a move down while its estimate still
        # climbs from its start is allowed, and recovers).
        deadline = time.monotonic() + 20
        while any(not e["afterVideoEnabled"] or e["afterVideoStreamType"] != 0 for e in viewer.fallbacks()[-1:]):
            if time.monotonic() > deadline:
                raise Failure(f"uncapped, the viewer was not on the big layer: {viewer.fallbacks()}")
            time.sleep(0.5)
        report["beforeCap"] = viewer.fallbacks()
        # The SDK looks at its uplink again every 3 s before it turns unused encodings off.
        time.sleep(4)
        # Nobody receives the lower encodings: the anchor's SDK has turned them off.
        first = {rid: frames_sent(anchor, rid) for rid in lower}
        time.sleep(1)
        report["lowerFramesWhileUnused"] = sum(frames_sent(anchor, rid) - first[rid] for rid in lower)

        # The cap: down a layer (small of two, medium of three), quickly, without a long freeze.
        before = viewer.inbound()
        command(args.impair_commands, f"downlink rate={int(args.cap)}")
        down, report["downSeconds"] = viewer.wait_for(
            lambda e: e["afterVideoStreamType"] == expected and e["afterVideoEnabled"] and e["reason"] == 0, args.down_limit + 8,
            f"fallback to layer {expected}")
        report["downEstimateBps"] = down.get("estimateBps")
        # The viewer needs that encoding now: the anchor turns it on again.
        unused = frames_sent(anchor, needed_rid)
        deadline = time.monotonic() + 10
        while frames_sent(anchor, needed_rid) <= unused and time.monotonic() < deadline:
            time.sleep(0.05)
        report["encodingOnAfterFallbackSeconds"] = round((viewer.now_ms() - down["at"]) / 1000, 3)
        time.sleep(args.hold_seconds)
        after = viewer.inbound()
        report["capFreezeSeconds"] = round(after["video"]["freezeSeconds"] - before["video"]["freezeSeconds"], 3)
        report["capFramesDecoded"] = after["video"]["decoded"] - before["video"]["decoded"]
        report["capWidth"] = after["video"]["width"]

        # Lifted: back to big. The impairment relay's downlink also carries the anchor's
        # congestion feedback, so the cap can starve the anchor's own estimate and Chromium then
        # stops its top encoding ("f") for a while; the relay does not move a viewer onto an
        # encoding that is not flowing, so recovery is timed from the lift, or from "f" flowing
        # again when it had stopped.
        lift_ms = viewer.now_ms()
        command(args.impair_commands, "downlink rate=0")
        top_frames = frames_sent(anchor, "f")
        top_back_ms = None
        deadline = time.monotonic() + 60
        while True:
            up = next((e for e in viewer.fallbacks() if e["at"] >= lift_ms and e["afterVideoStreamType"] == 0 and e["reason"] in (2, 101)), None)
            if up:
                break
            now_ms = viewer.now_ms()
            if top_back_ms is None and frames_sent(anchor, "f") > top_frames:
                top_back_ms = now_ms if now_ms - lift_ms > 1000 else lift_ms
            if time.monotonic() > deadline:
                published = anchor.browser.driver.execute_async_script(
                    "const done = arguments[arguments.length - 1]; window.pkDemo.client.getStats().then((s) => done(s.published), (e) => done(null));")
                encodings = anchor.browser.driver.execute_async_script(
                    "const done = arguments[arguments.length - 1]; window.pkDemo.encodings().then(done, (e) => done(String(e)));")
                raise Failure(f"no recovery to big within 60 s of the lift: {viewer.fallbacks()}; the anchor's published tracks: {published}; "
                              f"its encodings: {encodings}; its sample: {anchor.sample()}")
            time.sleep(0.1)
        report["upSeconds"] = round((up["at"] - lift_ms) / 1000, 3)
        report["topEncodingBackSeconds"] = round(((top_back_ms or up["at"]) - lift_ms) / 1000, 3)
        report["upAfterTopBackSeconds"] = round((up["at"] - (top_back_ms or lift_ms)) / 1000, 3)
        # Longer than 10 s: a fallback sooner after a recovery counts against it (the hold doubles).
        time.sleep(max(args.settle_seconds, 11))

        # Below the small layer and audio: video pauses, audio goes on.
        command(args.impair_commands, f"downlink rate={int(args.floor)}")
        _, report["pauseSeconds"] = viewer.wait_for(lambda e: not e["afterVideoEnabled"] and e["reason"] == 0, 20, "a pause (audio only)")
        time.sleep(2)  # what was queued before the pause drains
        paused_from = viewer.inbound()
        time.sleep(args.hold_seconds)
        paused_to = viewer.inbound()
        received = paused_to["audio"]["received"] - paused_from["audio"]["received"]
        lost = paused_to["audio"]["lost"] - paused_from["audio"]["lost"]
        report["pausedAudioPackets"] = received
        report["pausedAudioLoss"] = round(lost / max(received + lost, 1), 4)
        report["pausedFramesDecoded"] = paused_to["video"]["decoded"] - paused_from["video"]["decoded"]

        command(args.impair_commands, "downlink rate=0")
        _, report["resumeSeconds"] = viewer.wait_for(lambda e: e["afterVideoEnabled"] and e["reason"] == 2, 20, "video resumed")

        # Rendered small, then large: the layer follows the element's size. First back on big
        # (a resume steps up one layer at a time).
        deadline = time.monotonic() + 30
        while any(not e["afterVideoEnabled"] or e["afterVideoStreamType"] != 0 for e in viewer.fallbacks()[-1:]):
            if time.monotonic() > deadline:
                raise Failure(f"after the resume the viewer did not get back to the big layer: {viewer.fallbacks()}")
            time.sleep(0.5)
        for width, height, layer, key in [(160, 90, 1, "renderedSmallSeconds"), (1280, 720, 0, "renderedLargeSeconds")]:
            start_ms = viewer.now_ms()
            result = viewer.browser.driver.execute_async_script(RESIZE_SCRIPT, room, "fallback-anchor", width, height)
            if result is not True:
                raise Failure(f"observeRenderedSize failed: {result}")
            deadline = time.monotonic() + 10
            while not any(e["at"] >= start_ms and e["reason"] == 100 and e["afterVideoStreamType"] == layer for e in viewer.fallbacks()):
                if time.monotonic() > deadline:
                    raise Failure(f"a {width}x{height} rendering did not bring layer {layer} within 10 s: {viewer.fallbacks()}")
                time.sleep(0.1)
            event = next(e for e in viewer.fallbacks() if e["at"] >= start_ms and e["reason"] == 100 and e["afterVideoStreamType"] == layer)
            report[key] = round((event["at"] - start_ms) / 1000, 3)

        # The anchor's uplink starved: its top encoding stops, the viewer moves to one that flows.
        stop_render = "if (window.renderedSizeStop) { window.renderedSizeStop(); window.renderedSizeStop = null; } return true;"
        viewer.browser.js(stop_render)
        time.sleep(2)
        before = viewer.inbound()
        start_ms = viewer.now_ms()
        top_frames = frames_sent(anchor, "f")
        command(args.impair_commands, f"uplink rate={int(args.uplink_cap)}")
        deadline = time.monotonic() + 30
        moved = None
        while moved is None:
            moved = next((e for e in viewer.fallbacks() if e["at"] >= start_ms and e["reason"] == 101 and e["afterVideoStreamType"] != 0), None)
            if time.monotonic() > deadline:
                raise Failure(f"the anchor's uplink capped at {args.uplink_cap}: no move off its top encoding within 30 s "
                              f"(top frames {top_frames} -> {frames_sent(anchor, 'f')}): {viewer.fallbacks()}")
            time.sleep(0.1)
        report["uplinkCapMovedSeconds"] = round((moved["at"] - start_ms) / 1000, 3)
        report["uplinkCapMovedTo"] = moved["afterVideoStreamType"]
        time.sleep(args.hold_seconds)
        after = viewer.inbound()
        report["uplinkCapFreezeSeconds"] = round(after["video"]["freezeSeconds"] - before["video"]["freezeSeconds"], 3)
        report["uplinkCapFramesDecoded"] = after["video"]["decoded"] - before["video"]["decoded"]
        lift_ms = viewer.now_ms()
        command(args.impair_commands, "uplink rate=0")
        deadline = time.monotonic() + 60
        back = None
        while back is None:
            back = next((e for e in viewer.fallbacks() if e["at"] >= lift_ms and e["afterVideoStreamType"] == 0), None)
            if time.monotonic() > deadline:
                raise Failure(f"the top encoding did not come back to the viewer within 60 s of the uplink lift: {viewer.fallbacks()}")
            time.sleep(0.1)
        report["uplinkLiftBackSeconds"] = round((back["at"] - lift_ms) / 1000, 3)
        report["events"] = [{k: e[k] for k in ("afterVideoStreamType", "afterVideoEnabled", "reason", "estimateBps") if k in e}
                            for e in viewer.fallbacks()]
    finally:
        if viewer:
            viewer.quit()
        anchor.quit()
        for name in os.listdir(scratch):
            os.unlink(os.path.join(scratch, name))
        os.rmdir(scratch)
    if report["lowerFramesWhileUnused"] > 0:
        raise Failure(f"the anchor sent {report['lowerFramesWhileUnused']} frames of {lower} in a second while nobody received them")
    if report["encodingOnAfterFallbackSeconds"] > 2:
        raise Failure(f"encoding {needed_rid} ran again {report['encodingOnAfterFallbackSeconds']} s after the viewer needed it (limit 2 s)")
    if report["downSeconds"] > args.down_limit:
        raise Failure(f"the viewer moved to small {report['downSeconds']} s after the cap (limit {args.down_limit} s)")
    if report["capFreezeSeconds"] > args.freeze_limit or report["capFramesDecoded"] <= 0:
        raise Failure(f"under the cap the viewer froze {report['capFreezeSeconds']} s and decoded {report['capFramesDecoded']} frames")
    if report["upAfterTopBackSeconds"] > args.up_limit:
        raise Failure(f"the big layer came back {report['upSeconds']} s after the cap lifted, {report['upAfterTopBackSeconds']} s after the "
                      f"anchor's top encoding flowed again (limit {args.up_limit} s)")
    if report["pausedAudioPackets"] < 20 or report["pausedAudioLoss"] >= 0.02:
        raise Failure(f"while video was paused audio got {report['pausedAudioPackets']} packets, {report['pausedAudioLoss']} lost")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--capped", required=True, help="origin of a relay announced behind pkrelay-impair")
    parser.add_argument("--impair-commands", required=True, help="the impairment relay's command pipe")
    parser.add_argument("--layers", type=int, default=2, choices=[2, 3], help="the anchor's simulcast encodings (default 2)")
    parser.add_argument("--cap", type=float, help="the downlink cap, bit/s (default 600000 with two layers, 900000 with three)")
    parser.add_argument("--floor", type=float, default=120_000)
    parser.add_argument("--uplink-cap", type=float, help="the anchor's uplink cap that stops its top encoding, bit/s "
                        "(default 150000 with two layers, 400000 with three)")
    parser.add_argument("--big-rate", type=float, default=1_000_000, help="what the viewer must receive before the cap, bit/s")
    parser.add_argument("--settle-seconds", type=float, default=6)
    parser.add_argument("--hold-seconds", type=float, default=8)
    parser.add_argument("--down-limit", type=float, default=2)
    parser.add_argument("--up-limit", type=float, default=10)
    parser.add_argument("--freeze-limit", type=float, default=1)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    if args.cap is None:
        args.cap = 600_000 if args.layers == 2 else 900_000
    if args.uplink_cap is None:
        args.uplink_cap = 150_000 if args.layers == 2 else 400_000
    browser_args = argparse.Namespace(chromium=args.chromium, chromedriver=args.chromedriver)
    summary = {"ok": False}
    try:
        run(args, summary, browser_args)
        summary["ok"] = True
    except (Failure, demo.TestFailure, OSError) as exc:
        summary["error"] = f"{type(exc).__name__}: {exc}"
    except demo.WebDriverException as exc:
        summary["error"] = f"{type(exc).__name__}: {exc.msg}"
    print(json.dumps(summary, indent=2))
    sys.exit(0 if summary["ok"] else 1)


if __name__ == "__main__":
    main()
