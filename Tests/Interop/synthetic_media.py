"""Synthetic media for the aiortc peer: a moving test pattern, a 440 Hz tone, frame counters."""

import array
import asyncio
import fractions
import math
import time

import aioice.ice
from aiortc import RTCRtpSender
from aiortc.mediastreams import AUDIO_PTIME, MediaStreamError, MediaStreamTrack, VideoStreamTrack
from av import AudioFrame, VideoFrame


def use_loopback_only():
    """Make aiortc gather only 127.0.0.1.

    aioice leaves out 127.0.0.1 when it lists host addresses, but the relay under test listens on
    loopback: without this, the only candidates offered would be on other interfaces.
    """
    aioice.ice.get_host_addresses = lambda use_ipv4=True, use_ipv6=False: ["127.0.0.1"]


def codec_preferences(kind, codec_name, with_rtx):
    """The capabilities of one codec (every profile aiortc has of it), plus RTX if asked."""
    wanted = f"{kind}/{codec_name}".lower()
    capabilities = RTCRtpSender.getCapabilities(kind).codecs
    chosen = [c for c in capabilities if c.mimeType.lower() == wanted]
    if not chosen:
        names = sorted({c.mimeType.split("/")[1] for c in capabilities})
        raise ValueError(f"aiortc has no {kind} codec {codec_name}; it has {', '.join(names)}")
    if with_rtx:
        chosen += [c for c in capabilities if c.mimeType.lower() == f"{kind}/rtx"]
    return chosen


class MovingPatternTrack(VideoStreamTrack):
    """Grey gradient with a bright square crossing it, ~30 frames per second.

    Motion matters: a still picture compresses to nearly empty frames, which would hide a relay
    that loses or reorders packets of large frames.
    """

    def __init__(self, width=320, height=240):
        super().__init__()
        self.width = width
        self.height = height
        self.frames_produced = 0
        self._square = max(8, height // 5)

    async def recv(self):
        pts, time_base = await self.next_timestamp()
        frame = VideoFrame(width=self.width, height=self.height, format="yuv420p")
        luma, chroma_blue, chroma_red = frame.planes
        luma.update(self._luma(luma.line_size))
        neutral = bytes([128]) * chroma_blue.buffer_size
        chroma_blue.update(neutral)
        chroma_red.update(neutral)
        frame.pts = pts
        frame.time_base = time_base
        self.frames_produced += 1
        return frame

    def _luma(self, stride):
        index = self.frames_produced
        # A horizontal gradient that scrolls one step a frame, so every row changes.
        row = bytes((16 + ((x + index) * 200) // self.width % 200) for x in range(stride))
        plane = bytearray(row * self.height)
        span = self.width - self._square
        left = (index * 4) % (2 * span)
        if left > span:
            left = 2 * span - left
        top = (self.height - self._square) // 2
        bright = bytes([235]) * self._square
        for y in range(top, top + self._square):
            start = y * stride + left
            plane[start : start + self._square] = bright
        return bytes(plane)


class ToneTrack(MediaStreamTrack):
    """A 440 Hz sine at 48 kHz, mono, in 20 ms frames (what Opus packetizes)."""

    kind = "audio"
    sample_rate = 48000

    def __init__(self, frequency=440, amplitude=0.3):
        super().__init__()
        self.frames_produced = 0
        # One second holds a whole number of periods of any integer frequency, so a one-second
        # table can be read in a loop without a click at the seam.
        self._table = array.array(
            "h",
            (
                int(32767 * amplitude * math.sin(2 * math.pi * frequency * n / self.sample_rate))
                for n in range(self.sample_rate)
            ),
        )
        self._samples_per_frame = int(AUDIO_PTIME * self.sample_rate)
        self._start = None
        self._timestamp = 0

    async def recv(self):
        if self.readyState != "live":
            raise MediaStreamError
        if self._start is None:
            self._start = time.time()
        else:
            self._timestamp += self._samples_per_frame
            await asyncio.sleep(self._start + self._timestamp / self.sample_rate - time.time())
        offset = self._timestamp % self.sample_rate
        samples = self._table[offset : offset + self._samples_per_frame]
        frame = AudioFrame(format="s16", layout="mono", samples=self._samples_per_frame)
        frame.planes[0].update(samples.tobytes())
        frame.pts = self._timestamp
        frame.sample_rate = self.sample_rate
        frame.time_base = fractions.Fraction(1, self.sample_rate)
        self.frames_produced += 1
        return frame


class FrameCounter:
    """Decoded frames received, per publisher and kind."""

    def __init__(self):
        self.counts = {"video": {}, "audio": {}}
        self.first_frame_at = {}  # (publisher, kind) -> monotonic time
        self._tasks = []
        self._changed = asyncio.Event()

    def count(self, kind, publisher):
        return self.counts.get(kind, {}).get(publisher, 0)

    def consume(self, track, owner):
        """Read `track` until it ends, counting each decoded frame for the publisher owner().

        The owner is asked again for every frame: a renegotiation may hand the m-line the
        track arrives on to another publisher.
        """
        self._tasks.append(asyncio.ensure_future(self._read(track, owner)))

    async def wait_for_change(self, timeout):
        self._changed.clear()
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except asyncio.TimeoutError:
            pass

    async def stop(self):
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _read(self, track, owner):
        kind = track.kind
        while True:
            try:
                await track.recv()
            except MediaStreamError:
                return
            publisher = owner()
            counts = self.counts.setdefault(kind, {})
            counts[publisher] = counts.get(publisher, 0) + 1
            self.first_frame_at.setdefault((publisher, kind), time.monotonic())
            self._changed.set()
