#ifndef PKRELAY_CSOCKETSHIMS_H
#define PKRELAY_CSOCKETSHIMS_H

#include <stdint.h>

/* Batched UDP I/O for the data plane. recvmmsg/sendmmsg, struct mmsghdr and MSG_WAITFORONE are
 * GNU extensions Glibc does not show to Swift, so the data plane reaches them through these
 * few functions. IPv4 addresses and ports are in host byte order. */

typedef struct pkr_msg_batch pkr_msg_batch;

/* A batch of `count` messages, each with its own `buffer_size`-byte buffer, allocated once. */
pkr_msg_batch *pkr_batch_create(unsigned count, unsigned buffer_size);
void pkr_batch_destroy(pkr_msg_batch *batch);
unsigned pkr_batch_count(const pkr_msg_batch *batch);
unsigned pkr_batch_buffer_size(const pkr_msg_batch *batch);
uint8_t *pkr_batch_buffer(pkr_msg_batch *batch, unsigned index);

/* Receives up to the batch's count of datagrams without blocking; returns how many, 0 when none
 * are waiting, or -errno. Truncated datagrams are reported with length 0. */
int pkr_batch_receive(int fd, pkr_msg_batch *batch);
/* Receives as pkr_batch_receive does, on a connected socket: no source is read (the socket hears
 * only its peer), and pkr_batch_source_ip and _port answer nothing meaningful for the batch. */
int pkr_batch_receive_connected(int fd, pkr_msg_batch *batch);
unsigned pkr_batch_length(const pkr_msg_batch *batch, unsigned index);
/* The length a slot was prepared with for sending (before any send): both parts of a split one. */
unsigned pkr_batch_prepared_length(const pkr_msg_batch *batch, unsigned index);
uint32_t pkr_batch_source_ip(const pkr_msg_batch *batch, unsigned index);
uint16_t pkr_batch_source_port(const pkr_msg_batch *batch, unsigned index);

/* Receives as pkr_batch_receive does, on an IPv6 socket: each message's source is read with
 * pkr_batch_source6 (pkr_batch_source_ip and _port read IPv4 sources only). */
int pkr_batch_receive6(int fd, pkr_msg_batch *batch);
/* The IPv6 source of message `index` of a batch pkr_batch_receive6 filled, as two halves (see
 * pkr_ipv6_split); returns its port. */
uint16_t pkr_batch_source6(const pkr_msg_batch *batch, unsigned index, uint64_t *high, uint64_t *low);

/* Prepares message `index` for sending: its length and destination. */
void pkr_batch_prepare(pkr_msg_batch *batch, unsigned index, unsigned length, uint32_t ip, uint16_t port);
/* Prepares message `index` as the first `head_length` bytes of its buffer followed by
 * `tail_length` bytes at `tail`, which the kernel copies from where they lie when the message is
 * sent: `tail` must stay valid and unchanged until then. */
void pkr_batch_prepare_split(pkr_msg_batch *batch, unsigned index, unsigned head_length, const void *tail, unsigned tail_length,
                             uint32_t ip, uint16_t port);
/* Where a send batch keeps what changes from message to message, for a sender that prepares its
 * messages itself without a call per message: message i's buffer lies at buffers + i *
 * buffer_size; its two iovecs (struct iovec) at vectors + 2 * i, prepared as by
 * pkr_batch_prepare_split (the second one empty, starting where the first ends, when the message
 * is whole); its destination (struct sockaddr_in, address and port in network byte order) at
 * addresses + i; and its iovec count (a size_t, 1 or 2) at vector_counts + i * header_stride.
 * Everything else in the message headers is set once, by pkr_batch_send_layout. */
typedef struct pkr_send_layout {
    uint8_t *buffers;
    uint32_t buffer_size;
    uint32_t header_stride;
    void *vectors;
    void *addresses;
    uint8_t *vector_counts;
} pkr_send_layout;

/* Sets up every message header of `batch` for sending and returns where the rest lies. The batch
 * is then for sending only: pkr_batch_receive would rewrite the headers for receiving. */
pkr_send_layout pkr_batch_send_layout(pkr_msg_batch *batch);

/* From now on the batch's messages name no destination: it is sent on a socket connected to
 * the one address every message goes to (the kernel then uses the socket's cached route). */
void pkr_batch_send_connected(pkr_msg_batch *batch);

/* Copies prepared message `index` (both parts) to `destination`, at most `capacity` bytes;
 * returns how many were copied. */
unsigned pkr_batch_copy_prepared(const pkr_msg_batch *batch, unsigned index, void *destination, unsigned capacity);
/* Sends messages 0..<count with as few sendmmsg calls as possible; returns how many were sent
 * (the rest are dropped when the socket buffer is full); a datagram the kernel refuses is skipped. */
int pkr_batch_send(int fd, pkr_msg_batch *batch, unsigned count);

/* What sending a batch took: system calls, messages handed to the kernel (each one trip through
 * its UDP stack), and segmented messages the kernel refused and that went out again one by one. */
typedef struct pkr_send_tally {
    uint32_t calls;
    uint32_t messages;
    uint32_t fallbacks;
    /* Datagrams the kernel refused with an error other than a full buffer (a connected peer's
     * ICMP port unreachable, an unreachable network): passed over so the rest go out, and
     * counted here, not as sent. */
    uint32_t failed;
} pkr_send_tally;

/* The limits of one UDP_SEGMENT message: segments (the kernel's limit on the kernels PKRelay
 * supports; raised to 128 later), bytes (the whole message must fit an IPv4 datagram), and the
 * segment size (an Ethernet payload less the IPv4 and UDP headers: a larger segment would not fit
 * the path's MTU, and the kernel refuses the message). */
#define PKR_MAX_SEGMENTS 64
#define PKR_MAX_SEGMENTED_BYTES 65000
#define PKR_MAX_SEGMENT_SIZE 1472
/* The same over IPv6, whose header is 20 bytes longer (pkr_batch_send6). */
#define PKR_MAX_SEGMENT_SIZE6 1452

/* pkr_batch_send, adding what it took to `tally`. */
int pkr_batch_send_tallied(int fd, pkr_msg_batch *batch, unsigned count, pkr_send_tally *tally);
/* Sends messages 0..<count with UDP generic segmentation offload: each run of consecutive
 * datagrams to one destination whose sizes are equal (the last may be shorter) leaves as one
 * UDP_SEGMENT message, up to 64 segments and 65000 bytes; datagrams over 1472 bytes go alone.
 * Returns how many datagrams were sent, like pkr_batch_send. */
int pkr_batch_send_segmented(int fd, pkr_msg_batch *batch, unsigned count, pkr_send_tally *tally);
/* Sends messages 0..<count, prepared with any destination, to one IPv6 address on the IPv6
 * socket `fd` (a WebRTC transport's batch goes to its one peer): as pkr_batch_send_tallied, or
 * as pkr_batch_send_segmented when `segmented`. The messages' own destinations are kept. */
int pkr_batch_send6(int fd, pkr_msg_batch *batch, unsigned count, uint64_t high, uint64_t low, uint16_t port, int segmented,
                    pkr_send_tally *tally);
/* Whether this kernel accepts UDP_SEGMENT on a UDP socket (Linux 4.18 and later). */
int pkr_udp_segmentation_supported(void);

/* UDP generic receive offload: once enabled on a socket, consecutive datagrams of one sender
 * may arrive as one message, all of one segment size but the last (Linux 5.0 and later).
 * pkr_batch_segment_size is that size for a received message, 0 when it holds one datagram;
 * the receiving batch needs buffers of 65535 bytes to take a whole message. */
int pkr_udp_enable_receive_offload(int fd);
int pkr_udp_receive_offload_supported(void);
unsigned pkr_batch_segment_size(const pkr_msg_batch *batch, unsigned index);

/* Asks for socket buffers of these sizes (0: the system's default), past the system's limits
 * where the process may. */
void pkr_socket_size_buffers(int fd, int receive_buffer, int send_buffer);
/* A non-blocking IPv4 UDP socket bound to ip:port (port 0 = any); returns the fd or -errno. */
int pkr_udp_open(uint32_t ip, uint16_t port, int receive_buffer, int send_buffer);
int pkr_udp_local_port(int fd);
/* A send-only twin of the bound socket `fd`: a second socket on the same address and port that
 * sends what `fd` would and receives nothing. Every datagram a socket sends wakes the wait queue
 * of that socket when the skb is freed, and a socket in an epoll set always has a waiter there,
 * so sending on the socket the relay reads costs an epoll callback per datagram; the twin is in
 * no epoll set. The two form a SO_REUSEPORT group whose classic BPF program hands every arriving
 * datagram to `fd`. `fd` must have been bound without SO_REUSEPORT, so the port was free; a later
 * bind without SO_REUSEPORT still fails. Returns the twin's fd, or -errno with `fd` as it was. */
int pkr_udp_open_send_twin(int fd, int send_buffer);
/* Whether send-only twins work here: opens a socket and its twin on 127.0.0.1, and checks that a
 * datagram sent to the port reaches the first, not the twin, and that the port refuses a third
 * socket bound the usual way. */
int pkr_udp_send_twin_supported(void);
/* Connects a transport's socket `fd` and its send-only twin `send_fd` (or `fd` itself, or -1) to
 * its one peer, ip:port. Sent without a destination, a datagram then takes the socket's cached
 * route instead of a route lookup per datagram; datagrams from any other address no longer reach
 * `fd`. The twin is connected first, since of two sockets connected to the same peer the kernel
 * gives the peer's datagrams to the one connected last. Returns 0, or -errno with both
 * unconnected. */
int pkr_udp_connect_peer(int fd, int send_fd, uint32_t ip, uint16_t port);
/* Undoes a UDP socket's connection (connect with AF_UNSPEC). Returns 0 or -errno. */
int pkr_udp_disconnect(int fd);
/* Whether a socket and its twin connected by pkr_udp_connect_peer work here: on 127.0.0.1, the
 * peer's datagrams reach the socket and not the twin, another sender's reach neither, and what
 * the twin sends without a destination reaches the peer. */
int pkr_udp_connected_twin_supported(void);
/* For a socket that must keep hearing other senders (an SRTP transport takes authenticated RTCP
 * from a second address): a third socket on `fd`'s port, joined to its group, and `send_fd` (its
 * twin), both connected to the peer, the new one last. The peer's datagrams then arrive on the
 * returned socket, every other sender's still on `fd` (unconnected), and the twin sends without
 * a route lookup. Returns the new socket, or -errno with nothing connected. */
int pkr_udp_open_connected_reader(int fd, int send_fd, uint32_t ip, uint16_t port, int receive_buffer);
/* Whether pkr_udp_open_connected_reader works here: on 127.0.0.1, the peer's datagrams reach the
 * new socket, another sender's reach `fd`, none reach the twin, and the twin reaches the peer. */
int pkr_udp_connected_reader_supported(void);
int pkr_udp_send(int fd, const void *data, unsigned length, uint32_t ip, uint16_t port);
int pkr_close(int fd);

/* Parses a dotted IPv4 address; returns 0 on success. */
int pkr_ipv4_parse(const char *text, uint32_t *ip);

/* IPv6 addresses as two halves: `high` is the big-endian reading of bytes 0-7, `low` of 8-15. */
void pkr_ipv6_split(const uint8_t address[16], uint64_t *high, uint64_t *low);
void pkr_ipv6_join(uint64_t high, uint64_t low, uint8_t address[16]);
/* Parses IPv6 text (RFC 4291 forms, no brackets or zone); returns 0 on success. */
int pkr_ipv6_parse(const char *text, uint64_t *high, uint64_t *low);
/* A non-blocking IPv6-only UDP socket bound to the address and port (0 = any); the fd or -errno. */
int pkr_udp_open6(uint64_t high, uint64_t low, uint16_t port, int receive_buffer, int send_buffer);
/* Sends one datagram to an IPv6 address; the bytes sent or -errno. */
int pkr_udp_send6(int fd, const void *data, unsigned length, uint64_t high, uint64_t low, uint16_t port);

/* epoll and eventfd, for the data-plane thread's wait-and-wake loop. */
int pkr_epoll_create(void);
int pkr_epoll_add(int epoll_fd, int fd, uint64_t token);
int pkr_epoll_remove(int epoll_fd, int fd);
/* Waits up to timeout_ms; writes ready tokens into `tokens`; returns the count or -errno. */
int pkr_epoll_wait(int epoll_fd, uint64_t *tokens, int capacity, int timeout_ms);
int pkr_eventfd_create(void);
void pkr_eventfd_signal(int fd);
void pkr_eventfd_drain(int fd);

/* ICE over TCP (RFC 6544, passive candidates) on a shard's WebRTC port: a listening socket, and
 * connections that carry datagrams with RFC 4571 framing (a two-byte length before each). */
typedef struct pkr_stream pkr_stream;

/* A non-blocking TCP socket listening on ip:port; the fd or -errno. */
int pkr_tcp_listen(uint32_t ip, uint16_t port, int backlog);
/* A non-blocking IPv6-only TCP socket listening on the address and port; the fd or -errno. */
int pkr_tcp_listen6(uint64_t high, uint64_t low, uint16_t port, int backlog);
/* What an accepted connection's kernel send queue holds at most of bytes not yet sent
 * (TCP_NOTSENT_LOWAT). */
#define PKR_STREAM_UNSENT_LIMIT 32768
/* Accepts one waiting connection, non-blocking, without Nagle's delay and with at most
 * PKR_STREAM_UNSENT_LIMIT bytes unsent in the kernel; its fd and peer, or -EAGAIN when none
 * waits, or -errno. */
int pkr_tcp_accept(int listen_fd, uint32_t *ip, uint16_t *port);
/* pkr_tcp_accept on a listener pkr_tcp_listen6 opened. */
int pkr_tcp_accept6(int listen_fd, uint64_t *high, uint64_t *low, uint16_t *port);
/* A connection over `fd` with a receive buffer (which must hold the longest frame taken, plus
 * two) and a send buffer for what the kernel does not take at once; NULL without memory (`fd`
 * is then the caller's to close). */
pkr_stream *pkr_stream_create(int fd, unsigned receive_capacity, unsigned send_capacity);
/* Closes the connection's socket and frees it. */
void pkr_stream_destroy(pkr_stream *stream);
int pkr_stream_fd(const pkr_stream *stream);
/* Reads what has arrived, once: the bytes read, 0 when the peer closed, -EAGAIN when nothing
 * waits, or -errno. */
int pkr_stream_read(pkr_stream *stream);
/* The next whole frame read: 1 with `frame` (in the receive buffer, valid until the next read)
 * and `length`, or 0 when none is whole yet. A frame longer than `max_length` is passed over
 * and counted in `skipped`. */
int pkr_stream_next_frame(pkr_stream *stream, unsigned max_length, uint8_t **frame, unsigned *length, unsigned *skipped);
/* Queues one datagram, framed; 0 when the send buffer has no room for it (it is dropped). */
int pkr_stream_queue(pkr_stream *stream, const void *data, unsigned length);
/* Queues prepared messages 0..<count of a send batch, framed, in order, until one does not fit;
 * returns how many were queued (the rest are dropped). */
unsigned pkr_stream_queue_batch(pkr_stream *stream, const pkr_msg_batch *batch, unsigned count);
/* Writes what is queued until the kernel takes no more; returns the bytes still waiting, or
 * -errno when the connection failed. */
int pkr_stream_flush(pkr_stream *stream);
unsigned pkr_stream_pending(const pkr_stream *stream);
/* Changes what epoll reports for `fd` (already added): readable, and writable when asked. */
int pkr_epoll_watch(int epoll_fd, int fd, uint64_t token, int writable);

/* Clocks in milliseconds. */
/* The number of CPUs this process may run on (its affinity mask), at least 1. */
int pkr_available_cpus(void);

/* Pins the calling thread to one CPU; 0, or -errno. For measurements that need two sides on two
   known cores; the relay itself leaves placement to the kernel. */
int pkr_pin_thread(int cpu);

/* Raises the soft limit on open files to the hard limit; returns the soft limit now in force
   (-1 if it cannot be read). Every control connection and media port is a descriptor. */
int64_t pkr_raise_open_file_limit(void);
/* Names the calling thread as top, ps and perf show it (the kernel keeps 15 bytes). */
void pkr_set_thread_name(const char *name);
/* The kernel's id of the calling thread (what /proc/self/task lists). */
int32_t pkr_thread_id(void);
int64_t pkr_monotonic_ms(void);
/* The monotonic clock in microseconds (the same clock as pkr_monotonic_ms): arrival times for
   transport-wide congestion feedback, whose deltas count 250 µs ticks. */
int64_t pkr_monotonic_us(void);
int64_t pkr_realtime_ms(void);
/* CPU time in microseconds used so far by the calling thread, and by the whole process (every
   thread, user and system). Each is a syscall: read them about once a second, never per packet. */
int64_t pkr_thread_cpu_us(void);
int64_t pkr_process_cpu_us(void);

#endif
