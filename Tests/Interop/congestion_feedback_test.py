#!/usr/bin/env python3
"""Transport-wide congestion feedback as headless Chromium's send-side estimator sees it.

Ramp phase: a simulcast anchor (the SDK's default encodings: q at 200 kbit/s, f at 1.2 Mbit/s)
publishes to two relays at once, one with `media.congestionFeedback` on (--with) and one with it
off (--without). Both pages run side by side, in the same run. For each, from the moment the page
is live, the test follows the publisher's own figures (getStats): the candidate pair's
`availableOutgoingBitrate` (the browser's estimate) and each encoding's `targetBitrate` (what
the estimate gives the encoder). It reports when the top encoding's target first reaches its
configured maximum, and requires that with feedback it does so within --ramp-limit seconds and
sooner than without. A browser probes the link when it starts only when transport-wide feedback
tells it how the probes arrived; without, it grows from its 300 kbit/s start on receiver reports.

Cap phase (--capped): an anchor publishes to a relay with feedback whose announced address is
an impairment relay (`pkrelay-impair`) capping the uplink at --cap bits per second. The
browser's estimate must settle near the cap (its median over the last seconds within
--cap-tolerance of it), then grow past twice the cap once the cap is lifted (the test writes
`uplink rate=0` to the impairment relay's command pipe, --impair-commands).

Viewer phase (--viewer-cap): on the same capped relay, a simulcast anchor publishes and a
Chromium viewer watches it (the big layer, about 1.3 Mbit/s) with the impairment relay's
downlink capped at --viewer-cap bits per second, above the stream. The viewer keeps the
transport-wide sequence number the relay stamps on what it sends, and the relay's estimate of
its downlink (its own getStats, `transports[].bandwidthEstimate`) must come from that feedback,
settle near the cap (its probes find the headroom above the stream: the median over the last
half within --cap-tolerance), and grow past 1.3 times the cap once the cap is lifted, while
the viewer decodes throughout.

The relays must serve /demo/ on the given origins, with the development key. Chromium's estimate
can only follow feedback it parsed: a rejected or misread feedback leaves it at its start value.
Prints one JSON summary and exits 0 on success, 1 on failure.
"""

import argparse
import json
import os
import statistics
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_demo_test as demo  # noqa: E402  (the same Chromium flags and page driver)

# The publisher's estimate, bytes sent and each video encoding's target, in one getStats call.
SAMPLE_SCRIPT = """
const done = arguments[arguments.length - 1];
const pc = window.pkDemo && window.pkDemo.peerConnections.publish;
if (!pc) { done(null); return; }
const sender = pc.getSenders().find((s) => s.track && s.track.kind === 'video');
const limits = {};
if (sender) for (const e of sender.getParameters().encodings || []) limits[e.rid] = e.maxBitrate || null;
pc.getStats().then((report) => {
  const out = {available: null, bytesSent: 0, targets: {}, limits, limited: {}};
  report.forEach((s) => {
    if (s.type === 'candidate-pair' && s.nominated && s.availableOutgoingBitrate !== undefined) out.available = s.availableOutgoingBitrate;
    if (s.type === 'outbound-rtp' && s.kind === 'video') {
      out.bytesSent += s.bytesSent || 0;
      out.targets[s.rid] = s.targetBitrate === undefined ? null : s.targetBitrate;
      out.limited[s.rid] = s.qualityLimitationReason;
    }
  });
  done(out);
}, (e) => done({error: String(e)}));
"""


# The viewer's transports' bandwidth estimates, from the relay's getStats through the page's client.
ESTIMATE_SCRIPT = """
const done = arguments[arguments.length - 1];
const client = window.pkDemo && window.pkDemo.client;
if (!client) { done(null); return; }
client.getStats().then((stats) => done((stats.transports || []).map((t) => t.bandwidthEstimate).filter(Boolean)),
                       (e) => done({error: String(e)}));
"""


class Failure(Exception):
    pass


class Publisher:
    """One simulcast anchor page and its samples, timed from the moment it is live."""

    def __init__(self, name, base, room, args, simulcast="1"):
        self.name = name
        self.base = base.rstrip("/")
        self.browser = demo.Browser(name, args)
        self.browser.open(f"{self.base}/demo/anchor.html?room={room}&user={name}&simulcast={simulcast}")
        self.live_at = None
        self.samples = []

    def wait_live(self, deadline):
        while self.browser.state() != "live":
            if time.monotonic() > deadline or self.browser.state() in demo.DEAD_STATES:
                raise Failure(f"{self.name}: page is '{self.browser.state()}', not live")
            time.sleep(0.1)
        self.live_at = time.monotonic()

    def sample(self):
        value = self.browser.driver.execute_async_script(SAMPLE_SCRIPT)
        if value and "error" not in value:
            value["at"] = round(time.monotonic() - self.live_at, 2)
            self.samples.append(value)
        return value

    def top_reached_at(self):
        """Seconds from live until the top encoding's target reached its maximum, or None."""
        for sample in self.samples:
            limits = {rid: limit for rid, limit in sample["limits"].items() if limit}
            if not limits:
                continue
            top = max(limits, key=limits.get)
            target = sample["targets"].get(top)
            if target is not None and target >= 0.95 * limits[top]:
                return sample["at"]
        return None

    def estimates(self, since=0.0, until=float("inf")):
        return [s["available"] for s in self.samples if s["available"] is not None and since <= s["at"] <= until]

    def quit(self):
        self.browser.quit()


def counter(admin, name):
    """One unlabelled counter of a relay's /metrics, or None."""
    with urllib.request.urlopen(admin.rstrip("/") + "/metrics", timeout=3) as response:
        for line in response.read().decode("utf-8", "replace").splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    return None


def ramp(args, summary, browser_args):
    report = summary["ramp"] = {}
    deadline = time.monotonic() + 30
    publishers = [Publisher("with-feedback", args.with_base, "cc-ramp-on", browser_args),
                  Publisher("without-feedback", args.without_base, "cc-ramp-off", browser_args)]
    try:
        for publisher in publishers:
            publisher.wait_live(deadline)
        end = time.monotonic() + args.ramp_seconds
        while time.monotonic() < end:
            for publisher in publishers:
                publisher.sample()
            if all(p.top_reached_at() is not None for p in publishers):
                break
            time.sleep(0.25)
        for publisher in publishers:
            estimates = publisher.estimates()
            report[publisher.name] = {
                "topTargetReachedSeconds": publisher.top_reached_at(),
                "firstEstimate": estimates[0] if estimates else None,
                "lastEstimate": estimates[-1] if estimates else None,
                "limits": publisher.samples[-1]["limits"] if publisher.samples else None,
                "samples": len(publisher.samples),
            }
    finally:
        for publisher in publishers:
            publisher.quit()
    if args.with_admin:
        report["feedbackSentWith"] = counter(args.with_admin, "pkrelay_transport_feedback_sent_total")
    if args.without_admin:
        report["feedbackSentWithout"] = counter(args.without_admin, "pkrelay_transport_feedback_sent_total")
    with_time = report["with-feedback"]["topTargetReachedSeconds"]
    without_time = report["without-feedback"]["topTargetReachedSeconds"]
    if with_time is None or with_time > args.ramp_limit:
        raise Failure(f"with feedback the top encoding's target took {with_time} s to reach its maximum "
                      f"(limit {args.ramp_limit} s)")
    if without_time is not None and without_time <= with_time:
        raise Failure(f"without feedback the top encoding reached its maximum as soon ({without_time} s) "
                      f"as with it ({with_time} s)")
    if report.get("feedbackSentWith") == 0 or (report.get("feedbackSentWithout") or 0) > 0:
        raise Failure(f"feedback counters: {report.get('feedbackSentWith')} with, {report.get('feedbackSentWithout')} without")


def capped(args, summary, browser_args):
    report = summary["cap"] = {"capBitsPerSecond": args.cap}
    publisher = Publisher("capped", args.capped, "cc-cap", browser_args)
    try:
        publisher.wait_live(time.monotonic() + 30)
        end = time.monotonic() + args.cap_seconds
        while time.monotonic() < end:
            publisher.sample()
            time.sleep(0.5)
        settle_from = args.cap_seconds / 2
        under_cap = publisher.estimates(since=settle_from)
        with open(args.impair_commands, "w") as commands:
            commands.write("uplink rate=0\n")
        lifted_at = args.cap_seconds
        end = time.monotonic() + args.lift_seconds
        while time.monotonic() < end:
            publisher.sample()
            time.sleep(0.5)
        after = publisher.estimates(since=lifted_at)
    finally:
        publisher.quit()
    if not under_cap or not after:
        raise Failure("no estimate in getStats")
    median = statistics.median(under_cap)
    report.update({"medianUnderCap": median, "maximumUnderCap": max(under_cap), "maximumAfterLift": max(after),
                   "series": " ".join(f'{s["at"]}s:{s["available"]}' for s in publisher.samples[::2])})
    if abs(median - args.cap) > args.cap_tolerance * args.cap:
        raise Failure(f"under a cap of {args.cap} bit/s the estimate's median was {median}")
    if max(after) < 2 * args.cap:
        raise Failure(f"after the cap lifted the estimate stayed at most {max(after)} bit/s")


def viewer(args, summary, browser_args):
    report = summary["viewer"] = {"capBitsPerSecond": args.viewer_cap}
    with open(args.impair_commands, "w") as commands:
        commands.write(f"downlink rate={int(args.viewer_cap)}\n")
    anchor = Publisher("viewer-anchor", args.capped, "cc-view", browser_args)
    watcher = demo.Browser("viewer", browser_args)
    samples = []

    def sample(start):
        value = watcher.driver.execute_async_script(ESTIMATE_SCRIPT)
        if isinstance(value, list) and value:
            samples.append({"at": round(time.monotonic() - start, 2), **value[0]})

    try:
        anchor.wait_live(time.monotonic() + 30)
        watcher.open(f"{args.capped.rstrip('/')}/demo/audience.html?room=cc-view&user=viewer")
        start = time.monotonic()
        while time.monotonic() - start < args.viewer_seconds:
            sample(start)
            time.sleep(0.5)
        with open(args.impair_commands, "w") as commands:
            commands.write("downlink rate=0\n")
        while time.monotonic() - start < args.viewer_seconds + args.lift_seconds:
            sample(start)
            time.sleep(0.5)
        decoded = watcher.frames_decoded()
    finally:
        watcher.quit()
        anchor.quit()
    under = [s["estimateBps"] for s in samples if args.viewer_seconds / 2 <= s["at"] < args.viewer_seconds]
    after = [s["estimateBps"] for s in samples if s["at"] >= args.viewer_seconds]
    report.update({
        "sources": sorted({s["source"] for s in samples}), "framesDecoded": decoded,
        "medianUnderCap": statistics.median(under) if under else None, "maximumAfterLift": max(after) if after else None,
        "feedbacks": samples[-1]["feedbacks"] if samples else None,
        "series": " ".join(f'{s["at"]}s:{s["estimateBps"]}' for s in samples[::2]),
    })
    if not under or not after:
        raise Failure("no bandwidth estimate in the viewer's getStats")
    # Until the viewer's first feedback arrives the estimate is labelled receiver_reports.
    judged = {s["source"] for s in samples if s["at"] >= args.viewer_seconds / 2}
    if judged != {"transport_wide"}:
        raise Failure(f"the viewer's estimate came from {sorted(judged)}, not only its transport-wide feedback")
    if abs(report["medianUnderCap"] - args.viewer_cap) > args.cap_tolerance * args.viewer_cap:
        raise Failure(f"under a downlink cap of {args.viewer_cap} bit/s the viewer's estimate's median was {report['medianUnderCap']}")
    if report["maximumAfterLift"] < 1.3 * args.viewer_cap:
        raise Failure(f"after the downlink cap lifted the viewer's estimate stayed at most {report['maximumAfterLift']} bit/s")
    if max((count for count in (decoded or {}).values() if isinstance(count, (int, float))), default=0) <= 0:
        raise Failure(f"the viewer decoded nothing: {decoded}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--with", dest="with_base", required=True, help="origin of a relay with congestion feedback")
    parser.add_argument("--without", dest="without_base", required=True, help="origin of a relay without it")
    parser.add_argument("--with-admin", help="admin origin of the relay with feedback (its counter is checked)")
    parser.add_argument("--without-admin", help="admin origin of the relay without feedback")
    parser.add_argument("--ramp-seconds", type=float, default=30, help="longest wait for both tops (default 30)")
    parser.add_argument("--ramp-limit", type=float, default=5, help="seconds allowed with feedback (default 5)")
    parser.add_argument("--capped", help="origin of a relay with feedback announced behind pkrelay-impair")
    parser.add_argument("--impair-commands", help="the impairment relay's command pipe (its standard input)")
    parser.add_argument("--cap", type=float, default=300_000, help="the uplink cap in force, bit/s (default 300000)")
    parser.add_argument("--cap-tolerance", type=float, default=0.35, help="allowed relative error of the median (default 0.35)")
    parser.add_argument("--cap-seconds", type=float, default=16)
    parser.add_argument("--lift-seconds", type=float, default=14)
    parser.add_argument("--viewer-cap", type=float, help="with --capped: the viewer phase's downlink cap, bit/s")
    parser.add_argument("--viewer-seconds", type=float, default=20)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    browser_args = argparse.Namespace(chromium=args.chromium, chromedriver=args.chromedriver)
    summary = {"ok": False}
    try:
        ramp(args, summary, browser_args)
        if args.capped:
            capped(args, summary, browser_args)
        if args.capped and args.viewer_cap:
            viewer(args, summary, browser_args)
        summary["ok"] = True
    except (Failure, demo.TestFailure, OSError) as exc:
        summary["error"] = f"{type(exc).__name__}: {exc}"
    except demo.WebDriverException as exc:
        summary["error"] = f"{type(exc).__name__}: {exc.msg}"
    print(json.dumps(summary, indent=2))
    sys.exit(0 if summary["ok"] else 1)


if __name__ == "__main__":
    main()
