/// Whether the media plane sends with UDP generic segmentation offload (`UDP_SEGMENT`): runs of
/// equal-size datagrams to one subscriber leave as one message, which the kernel (or the network
/// card) cuts into datagrams, so the kernel's per-datagram cost is paid once per run.
public enum SegmentationOffload: String, Sendable, Hashable, CaseIterable {
    /// On where the kernel supports it (Linux 4.18 and later), off elsewhere.
    case auto
    /// On; the relay refuses to start where the kernel does not support it.
    case on
    /// Off: one message per datagram, as `sendmmsg` alone sends them.
    case off
}
