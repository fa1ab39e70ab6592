"""Deliberate video packet loss for retransmission (RFC 4588 RTX) tests.

Each side drops every Nth video packet the first time it is seen, so the other side must repair
it: a dropped outgoing packet makes the relay NACK the publisher, which answers on its RTX
stream; a dropped incoming packet makes aiortc NACK the relay, which answers on the RTX stream it
offered. The counts show which way the repairs came.
"""

import struct

from aiortc.codecs import is_rtx
from aiortc.rtcdtlstransport import RTCDtlsTransport
from aiortc.rtcrtpreceiver import RTCRtpReceiver
from aiortc.rtp import is_rtcp


class IncomingLoss:
    """Drops incoming video packets; counts the RTX packets that bring them back."""

    def __init__(self, every):
        self.every = every
        self.dropped = set()  # (ssrc, sequence number)
        self.repaired = set()
        self.rtx_packets = 0

    def install(self):
        loss = self
        original = RTCRtpReceiver._handle_rtp_packet

        async def handle(receiver, packet, arrival_time_ms):
            codec = receiver._RTCRtpReceiver__codecs.get(packet.payload_type)
            if receiver._RTCRtpReceiver__kind == "video" and codec is not None:
                if is_rtx(codec):
                    loss.rtx_packets += 1
                    if len(packet.payload) >= 2:
                        sequence = struct.unpack("!H", packet.payload[:2])[0]
                        original_ssrc = receiver._RTCRtpReceiver__rtx_ssrc.get(packet.ssrc)
                        loss.repaired.add((original_ssrc, sequence))
                elif packet.sequence_number % loss.every == 0:
                    key = (packet.ssrc, packet.sequence_number)
                    if key not in loss.dropped:
                        loss.dropped.add(key)
                        return
            await original(receiver, packet, arrival_time_ms)

        RTCRtpReceiver._handle_rtp_packet = handle

    def unrepaired(self):
        """How many dropped packets no RTX packet has brought back yet."""
        return len(self.dropped - self.repaired)

    def report(self):
        return {"dropped": len(self.dropped), "rtxPackets": self.rtx_packets,
                "repaired": len(self.dropped & self.repaired)}


class OutgoingLoss:
    """Drops outgoing packets of one payload type; counts packets sent with the rtx one."""

    def __init__(self, every):
        self.every = every
        self.payload_type = None
        self.rtx_payload_type = None
        self.dropped = set()
        self.rtx_packets = 0

    def configure(self, payload_type, rtx_payload_type):
        self.payload_type = payload_type
        self.rtx_payload_type = rtx_payload_type

    def install(self):
        loss = self
        original = RTCDtlsTransport._send_rtp

        async def send(transport, data):
            if len(data) >= 12 and not is_rtcp(data):
                payload_type = data[1] & 0x7F
                sequence = struct.unpack("!H", data[2:4])[0]
                if payload_type == loss.rtx_payload_type:
                    loss.rtx_packets += 1
                elif payload_type == loss.payload_type and sequence % loss.every == 0 \
                        and sequence not in loss.dropped:
                    loss.dropped.add(sequence)
                    return
            await original(transport, data)

        RTCDtlsTransport._send_rtp = send

    def report(self):
        return {"dropped": len(self.dropped), "rtxPackets": self.rtx_packets}
