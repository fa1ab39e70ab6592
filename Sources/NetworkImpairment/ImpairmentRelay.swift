import CSocketShims
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A UDP forwarder that impairs what it carries, for tests: clients send to its port, and it
/// forwards to the target (a relay's media port) through an ``ImpairedLink`` per client and
/// direction, from a socket of its own per client, so the target sees each client at its own
/// address, as behind a NAT. WebRTC clients reach a relay through it when the relay announces
/// the forwarder's address and port as its candidate.
///
/// Each client gets the uplink and downlink settings in force (its own bottleneck: a cap is per
/// user, as a phone's link is); ``set(_:for:)`` changes them for every client at once, during a
/// run. One thread polls the sockets and runs the links on the monotonic clock.
public final class ImpairmentRelay: Sendable {
    /// The address clients send to.
    public let listenAddress: String
    public let port: UInt16
    let listenFD: Int32
    /// Wakes the thread when settings change or the relay stops.
    let wakeFD: Int32
    let state: Mutex<State>
    let thread: ImpairmentThread

    struct State {
        var uplink: LinkImpairment
        var downlink: LinkImpairment
        var flows: [UInt64: ImpairmentFlow] = [:]
        var running = true
        var nextSeed: UInt64
        let target: sockaddr_in
        let upstreamBind: sockaddr_in
    }

    /// Starts forwarding from `listen` (an IPv4 address and port; port 0 picks one) to `target`.
    /// - Parameter seed: fixes the links' losses and jitter (each flow and direction draws its own from it).
    public init(
        listen: String = "127.0.0.1", listenPort: UInt16 = 0, target: String, targetPort: UInt16, uplink: LinkImpairment = .none,
        downlink: LinkImpairment = .none, seed: UInt64 = 1
    ) throws(ImpairmentRelayError) {
        guard let listenAddress = ImpairmentSocket.address(listen, port: listenPort) else { throw .invalidAddress("\(listen):\(listenPort)") }
        guard let targetAddress = ImpairmentSocket.address(target, port: targetPort) else { throw .invalidAddress("\(target):\(targetPort)") }
        let fd = try ImpairmentSocket.open(bindingTo: listenAddress)
        let wake = pkr_eventfd_create()
        guard wake >= 0 else {
            close(fd)
            throw .socket(errno: -wake)
        }
        listenFD = fd
        wakeFD = wake
        self.listenAddress = listen
        port = UInt16(bigEndian: ImpairmentSocket.localAddress(of: fd).sin_port)
        var upstreamBind = listenAddress
        upstreamBind.sin_port = 0
        state = Mutex(State(uplink: uplink, downlink: downlink, nextSeed: seed, target: targetAddress, upstreamBind: upstreamBind))
        thread = ImpairmentThread()
        guard thread.start({ [self] in run() }) else {
            close(fd)
            close(wake)
            throw .thread
        }
    }

    /// Changes one direction's impairment for every client, now and later.
    public func set(_ impairment: LinkImpairment, for direction: ImpairmentDirection) {
        let now = ImpairmentSocket.nowUs()
        state.withLock { state in
            switch direction {
            case .uplink:
                state.uplink = impairment
                for flow in state.flows.values { flow.uplink.reconfigure(impairment, nowUs: now) }
            case .downlink:
                state.downlink = impairment
                for flow in state.flows.values { flow.downlink.reconfigure(impairment, nowUs: now) }
            }
        }
        wake()
    }

    /// The settings in force for one direction.
    public func impairment(for direction: ImpairmentDirection) -> LinkImpairment {
        state.withLock { direction == .uplink ? $0.uplink : $0.downlink }
    }

    /// What every flow's links did so far.
    public func statistics() -> ImpairmentStatistics {
        state.withLock { state in
            var statistics = ImpairmentStatistics()
            statistics.flows = state.flows.count
            for flow in state.flows.values {
                statistics.uplink = statistics.uplink + flow.uplink.statistics
                statistics.downlink = statistics.downlink + flow.downlink.statistics
                statistics.uplinkQueuedBytes += flow.uplink.queuedBytes
                statistics.downlinkQueuedBytes += flow.downlink.queuedBytes
            }
            return statistics
        }
    }

    /// Stops forwarding and closes every socket; what is still in the links is lost.
    public func stop() {
        let wasRunning = state.withLock { state in
            defer { state.running = false }
            return state.running
        }
        guard wasRunning else { return }
        wake()
        thread.join()
        state.withLock { $0.flows.removeAll() }
        close(listenFD)
        close(wakeFD)
    }

    deinit { stop() }

    func wake() { pkr_eventfd_signal(wakeFD) }

    /// The thread's loop: wait for a datagram or the links' next event, then take in what
    /// arrived and send what is due.
    func run() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 8)
        defer { buffer.deallocate() }
        var descriptors: [pollfd] = []
        // The flow each descriptor reads for, by its key (nil for the wake and listening sockets):
        // flows stay inside the lock.
        var flowsByDescriptor: [UInt64?] = []
        while true {
            let (running, nextEvent) = state.withLock { state -> (Bool, Int64?) in
                descriptors.removeAll(keepingCapacity: true)
                flowsByDescriptor.removeAll(keepingCapacity: true)
                descriptors.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
                descriptors.append(pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0))
                flowsByDescriptor.append(contentsOf: [nil, nil])
                var next: Int64?
                for (key, flow) in state.flows {
                    descriptors.append(pollfd(fd: flow.upstreamFD, events: Int16(POLLIN), revents: 0))
                    flowsByDescriptor.append(key)
                    if let event = flow.nextEventUs { next = min(next ?? event, event) }
                }
                return (state.running, next)
            }
            guard running else { return }
            // poll counts milliseconds: round up, so that a link's event is never early.
            var timeoutMs: Int32 = 1000
            if let nextEvent {
                let waitUs = max(0, nextEvent - ImpairmentSocket.nowUs())
                timeoutMs = Int32(min(1000, (waitUs + 999) / 1000))
            }
            _ = poll(&descriptors, nfds_t(descriptors.count), timeoutMs)
            let now = ImpairmentSocket.nowUs()
            state.withLock { state in
                if descriptors[0].revents != 0 { pkr_eventfd_drain(wakeFD) }
                if descriptors[1].revents != 0 {
                    while let (length, from) = ImpairmentSocket.receive(listenFD, into: buffer) {
                        guard let flow = flow(for: from, in: &state, nowUs: now) else { continue }
                        _ = flow.uplink.enter(Array(buffer[0..<length]), bytes: length, nowUs: now)
                    }
                }
                for index in 2..<descriptors.count where descriptors[index].revents != 0 {
                    guard let key = flowsByDescriptor[index], let flow = state.flows[key] else { continue }
                    while let (length, _) = ImpairmentSocket.receive(flow.upstreamFD, into: buffer) {
                        _ = flow.downlink.enter(Array(buffer[0..<length]), bytes: length, nowUs: now)
                    }
                }
                for flow in state.flows.values {
                    flow.uplink.advance(to: now) { ImpairmentSocket.send(flow.upstreamFD, $0) }
                    flow.downlink.advance(to: now) { ImpairmentSocket.send(listenFD, $0, to: flow.client) }
                }
            }
        }
    }

    /// The flow of a client, made at its first datagram.
    private func flow(for client: sockaddr_in, in state: inout State, nowUs: Int64) -> ImpairmentFlow? {
        let key = ImpairmentSocket.key(client)
        if let flow = state.flows[key] { return flow }
        guard let fd = try? ImpairmentSocket.open(bindingTo: state.upstreamBind, connectingTo: state.target) else { return nil }
        let seed = state.nextSeed
        state.nextSeed &+= 2
        let flow = ImpairmentFlow(
            client: client, upstreamFD: fd, uplink: ImpairedLink(state.uplink, nowUs: nowUs, seed: seed),
            downlink: ImpairedLink(state.downlink, nowUs: nowUs, seed: seed &+ 1))
        state.flows[key] = flow
        return flow
    }
}
