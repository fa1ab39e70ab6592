import CSocketShims
import Glibc

// The send side of a WebRTC subscriber's batch over UDP (sendmmsg on the shard's socket) against
// over ICE-TCP (framed into the connection's buffer, one send): CPU time of the sending thread
// per datagram, kernel included, on 127.0.0.1, with a second thread draining the far end.
//
//   StreamSendCost [DATAGRAMS_PER_BATCH] [BATCHES] [SIZE] [ROUNDS]
//
// Each round runs UDP then TCP, so that drift on a shared machine touches both alike.
/// Reads a socket until it is closed: the far end, so the sender never stalls on a full buffer.
func drain(_ fd: Int32) {
    let thread = UnsafeMutablePointer<pthread_t>.allocate(capacity: 1)
    let argument = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    argument.pointee = fd
    pthread_create(
        thread, nil,
        { raw in
            let fd = raw!.assumingMemoryBound(to: Int32.self).pointee
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, 100)
                let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR) { break }
            }
            return nil
        }, argument)
}

func run() {
    let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
    let perBatch = arguments.count > 0 ? arguments[0] : 16
    let batches = arguments.count > 1 ? arguments[1] : 20_000
    let size = arguments.count > 2 ? arguments[2] : 1200
    let rounds = arguments.count > 3 ? arguments[3] : 3
    let loopback: UInt32 = 0x7F00_0001

    let batch = pkr_batch_create(UInt32(perBatch), 2048)!
    _ = pkr_batch_send_layout(batch)

    // UDP: the relay's socket and a subscriber's.
    let udpSender = pkr_udp_open(loopback, 0, 4 << 20, 4 << 20)
    let udpReceiver = pkr_udp_open(loopback, 0, 16 << 20, 0)
    let udpPort = UInt16(pkr_udp_local_port(udpReceiver))
    drain(udpReceiver)

    // TCP: the relay's accepted connection and a subscriber's socket.
    let listener = pkr_tcp_listen(loopback, 0, 4)
    let tcpPort = UInt16(pkr_udp_local_port(listener))
    let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = tcpPort.bigEndian
    address.sin_addr.s_addr = loopback.bigEndian
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    var peerIP: UInt32 = 0
    var peerPort: UInt16 = 0
    var accepted: Int32 = -1
    while accepted < 0 { accepted = pkr_tcp_accept(listener, &peerIP, &peerPort) }
    let stream = pkr_stream_create(accepted, 4096, 65_536)!
    drain(client)

    func prepare(port: UInt16) {
        for index in 0..<perBatch {
            let buffer = pkr_batch_buffer(batch, UInt32(index))!
            buffer[0] = 0x80
            buffer[1] = 96
            pkr_batch_prepare(batch, UInt32(index), UInt32(size), loopback, port)
        }
    }

    func measure(_ name: String, _ send: () -> Void) -> Double {
        let start = pkr_thread_cpu_us()
        for _ in 0..<batches { send() }
        let spent = pkr_thread_cpu_us() - start
        return Double(spent) * 1000 / Double(batches * perBatch)
    }

    var stalls = 0
    print("datagrams per batch \(perBatch), batches \(batches), \(size) bytes; ns of the sending thread's CPU per datagram")
    for round in 1...rounds {
        prepare(port: udpPort)
        var tally = pkr_send_tally()
        let udp = measure("udp") { _ = pkr_batch_send_tallied(udpSender, batch, UInt32(perBatch), &tally) }
        prepare(port: 0)
        let tcp = measure("tcp") {
            // As the shard does: what does not fit waits, and the batch after it finds room or drops.
            while pkr_stream_pending(stream) > 32_768 {
                stalls += 1
                _ = pkr_stream_flush(stream)
            }
            _ = pkr_stream_queue_batch(stream, batch, UInt32(perBatch))
            _ = pkr_stream_flush(stream)
        }
        print("round \(round): udp \(Int(udp)) ns, tcp \(Int(tcp)) ns, tcp/udp \(Double(Int(tcp / udp * 100)) / 100)")
    }
    print("tcp flushes that waited for room: \(stalls)")
}

run()
