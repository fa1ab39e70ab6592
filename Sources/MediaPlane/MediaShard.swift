import CSocketShims

/// One data-plane thread of the media plane: its epoll set, its mailbox, its report, and the
/// shell and core it runs. It owns its transports, sources and sinks outright; other shards reach
/// its subscribers only through pipes.
final class MediaShard: Sendable {
    let index: Int
    let mailbox: MediaPlaneMailbox
    let epollFD: Int32
    let reports = ReportStore()
    let thread: DataPlaneThread

    /// Creates the shard's epoll set and eventfd, or throws when the system refuses them.
    init(index: Int) throws(MediaPlaneError) {
        let epoll = pkr_epoll_create()
        let event = pkr_eventfd_create()
        guard epoll >= 0, event >= 0 else {
            if epoll >= 0 { _ = pkr_close(epoll) }
            if event >= 0 { _ = pkr_close(event) }
            throw .socketFailed(errno: -min(epoll, event))
        }
        self.index = index
        epollFD = epoll
        mailbox = MediaPlaneMailbox(eventFD: event)
        thread = DataPlaneThread()
    }

    /// Starts the thread with this shard's WebRTC sockets (``ShardSockets/none`` when WebRTC is
    /// off), shared by the WebRTC transports that live here; `peerEventFDs` wake the other
    /// shards when a pipe to them has packets.
    func start(
        configuration: MediaPlaneConfiguration, sockets: ShardSockets, peerEventFDs: [Int32], events: AsyncStream<MediaPlaneEvent>.Continuation
    ) -> Bool {
        let shell = MediaShell(
            configuration: configuration, mailbox: mailbox, reports: reports, epollFD: epollFD, sockets: sockets, peerEventFDs: peerEventFDs,
            events: events)
        return thread.start(name: "pkrelay-media\(index)") { shell.run() }
    }

    /// Closes the epoll set and eventfd (after the thread has stopped).
    func close() {
        _ = pkr_close(epollFD)
        _ = pkr_close(mailbox.eventFD)
    }
}
