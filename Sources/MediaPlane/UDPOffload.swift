/// Whether the media plane uses one of the kernel's UDP offloads: generic segmentation offload
/// (`UDP_SEGMENT`, `media.gso`), where runs of equal-size datagrams to one subscriber leave as
/// one message that the kernel (or the network card) cuts into datagrams, and generic receive
/// offload (`UDP_GRO`, `media.gro`), where consecutive datagrams of one sender arrive as one
/// message that the relay cuts up itself. Either way the kernel's per-datagram cost is paid
/// once per run.
public enum UDPOffload: String, Sendable, Hashable, CaseIterable {
    /// On where the kernel supports it, off elsewhere.
    case auto
    /// On; the relay refuses to start where the kernel does not support it.
    case on
    /// Off: one message per datagram.
    case off
}

extension UDPOffload {
    /// `on` or `off` for a kernel that does or does not support the offload; nil when the
    /// offload is required (`on`) but not supported. `supported` is asked only when the answer
    /// depends on it: probing the kernel for UDP_GRO flips a kernel-wide switch twice (enabling it
    /// and closing the probe socket), which stalls every CPU, so `off` skips the probe.
    func resolved(supported: @autoclosure () -> Bool) -> UDPOffload? {
        switch self {
        case .auto: supported() ? .on : .off
        case .on: supported() ? .on : nil
        case .off: .off
        }
    }
}
