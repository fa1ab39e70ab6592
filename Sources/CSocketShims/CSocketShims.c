#define _GNU_SOURCE
#include "CSocketShims.h"

#include <arpa/inet.h>
#include <linux/filter.h>
#include <poll.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif
#ifndef SOL_UDP
#define SOL_UDP 17
#endif

/* PKR_MAX_SEGMENTS, PKR_MAX_SEGMENTED_BYTES and PKR_MAX_SEGMENT_SIZE (the header) bound a run;
 * larger datagrams go out one by one (and fragment). */

struct pkr_msg_batch {
    unsigned count;
    unsigned buffer_size;
    uint8_t *buffers;
    struct mmsghdr *headers;
    /* Two per message: a message's bytes in its own buffer, then, for a message prepared with
     * pkr_batch_prepare_split, the rest of its bytes where they already lie (else empty). */
    struct iovec *vectors;
    struct sockaddr_in *addresses;
    /* Segmented sending: one message per run of datagrams to one destination, with a control
     * buffer each for its UDP_SEGMENT size, and the first slot and slot count of each run. */
    struct mmsghdr *run_headers;
    uint8_t *run_controls;
    unsigned *run_first;
    unsigned *run_length;
    /* Receiving: a control buffer per message for UDP_GRO's segment size, and the size read. */
    uint8_t *receive_controls;
    unsigned *segment_sizes;
    /* Sent on a connected socket: messages name no destination (pkr_batch_send_connected). */
    int connected;
    /* Received on an IPv6 socket (pkr_batch_receive6): each message's source. */
    struct sockaddr_in6 *sources6;
    /* While pkr_batch_send6 sends: the one IPv6 destination of every message. */
    struct sockaddr_in6 destination6;
    int sends_to6;
};

#define PKR_RECEIVE_CONTROL_SIZE CMSG_SPACE(sizeof(int))

#define PKR_RUN_CONTROL_SIZE CMSG_SPACE(sizeof(uint16_t))

pkr_msg_batch *pkr_batch_create(unsigned count, unsigned buffer_size) {
    pkr_msg_batch *batch = calloc(1, sizeof(pkr_msg_batch));
    if (!batch) return NULL;
    batch->count = count;
    batch->buffer_size = buffer_size;
    batch->buffers = calloc(count, buffer_size);
    batch->headers = calloc(count, sizeof(struct mmsghdr));
    batch->vectors = calloc((size_t)count * 2, sizeof(struct iovec));
    batch->addresses = calloc(count, sizeof(struct sockaddr_in));
    batch->run_headers = calloc(count, sizeof(struct mmsghdr));
    batch->run_controls = calloc(count, PKR_RUN_CONTROL_SIZE);
    batch->run_first = calloc(count, sizeof(unsigned));
    batch->run_length = calloc(count, sizeof(unsigned));
    batch->receive_controls = calloc(count, PKR_RECEIVE_CONTROL_SIZE);
    batch->segment_sizes = calloc(count, sizeof(unsigned));
    batch->sources6 = calloc(count, sizeof(struct sockaddr_in6));
    if (!batch->sources6 || !batch->buffers || !batch->headers || !batch->vectors || !batch->addresses || !batch->run_headers || !batch->run_controls
        || !batch->run_first || !batch->run_length || !batch->receive_controls || !batch->segment_sizes) {
        pkr_batch_destroy(batch);
        return NULL;
    }
    return batch;
}

void pkr_batch_destroy(pkr_msg_batch *batch) {
    if (!batch) return;
    free(batch->buffers);
    free(batch->headers);
    free(batch->vectors);
    free(batch->addresses);
    free(batch->run_headers);
    free(batch->run_controls);
    free(batch->run_first);
    free(batch->run_length);
    free(batch->receive_controls);
    free(batch->segment_sizes);
    free(batch->sources6);
    free(batch);
}

unsigned pkr_batch_count(const pkr_msg_batch *batch) { return batch->count; }
unsigned pkr_batch_buffer_size(const pkr_msg_batch *batch) { return batch->buffer_size; }
uint8_t *pkr_batch_buffer(pkr_msg_batch *batch, unsigned index) {
    return batch->buffers + (size_t)index * batch->buffer_size;
}

/* recvmmsg into the batch, each source into `names` (`name_size` bytes each); messages whose
 * source is not of `family` are reported with length 0. Without `names` (a connected socket,
 * whose one source the caller knows) no source is asked for: the kernel then copies no address
 * out per datagram. */
static int pkr_batch_receive_from(int fd, pkr_msg_batch *batch, void *names, size_t name_size, int family) {
    for (unsigned i = 0; i < batch->count; i++) {
        batch->vectors[2 * i].iov_base = pkr_batch_buffer(batch, i);
        batch->vectors[2 * i].iov_len = batch->buffer_size;
        memset(&batch->headers[i].msg_hdr, 0, sizeof(struct msghdr));
        batch->headers[i].msg_hdr.msg_iov = &batch->vectors[2 * i];
        batch->headers[i].msg_hdr.msg_iovlen = 1;
        batch->headers[i].msg_hdr.msg_name = names ? (uint8_t *)names + i * name_size : NULL;
        batch->headers[i].msg_hdr.msg_namelen = names ? (socklen_t)name_size : 0;
        batch->headers[i].msg_hdr.msg_control = batch->receive_controls + (size_t)i * PKR_RECEIVE_CONTROL_SIZE;
        batch->headers[i].msg_hdr.msg_controllen = PKR_RECEIVE_CONTROL_SIZE;
        batch->headers[i].msg_len = 0;
    }
    int received = recvmmsg(fd, batch->headers, batch->count, MSG_DONTWAIT, NULL);
    if (received < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
        return -errno;
    }
    for (int i = 0; i < received; i++) {
        struct msghdr *message = &batch->headers[i].msg_hdr;
        if (message->msg_flags & MSG_TRUNC) batch->headers[i].msg_len = 0;
        if (names && ((struct sockaddr *)((uint8_t *)names + (size_t)i * name_size))->sa_family != family) batch->headers[i].msg_len = 0;
        batch->segment_sizes[i] = 0;
        for (struct cmsghdr *header = CMSG_FIRSTHDR(message); header; header = CMSG_NXTHDR(message, header)) {
            if (header->cmsg_level == SOL_UDP && header->cmsg_type == UDP_GRO) {
                int size = 0;
                memcpy(&size, CMSG_DATA(header), sizeof(size));
                if (size > 0) batch->segment_sizes[i] = (unsigned)size;
            }
        }
    }
    return received;
}

int pkr_batch_receive(int fd, pkr_msg_batch *batch) {
    return pkr_batch_receive_from(fd, batch, batch->addresses, sizeof(struct sockaddr_in), AF_INET);
}

int pkr_batch_receive_connected(int fd, pkr_msg_batch *batch) { return pkr_batch_receive_from(fd, batch, NULL, 0, AF_INET); }

int pkr_batch_receive6(int fd, pkr_msg_batch *batch) {
    return pkr_batch_receive_from(fd, batch, batch->sources6, sizeof(struct sockaddr_in6), AF_INET6);
}

uint16_t pkr_batch_source6(const pkr_msg_batch *batch, unsigned index, uint64_t *high, uint64_t *low) {
    pkr_ipv6_split(batch->sources6[index].sin6_addr.s6_addr, high, low);
    return ntohs(batch->sources6[index].sin6_port);
}

unsigned pkr_batch_length(const pkr_msg_batch *batch, unsigned index) { return batch->headers[index].msg_len; }
unsigned pkr_batch_prepared_length(const pkr_msg_batch *batch, unsigned index) {
    return (unsigned)(batch->vectors[2 * index].iov_len + batch->vectors[2 * index + 1].iov_len);
}
uint32_t pkr_batch_source_ip(const pkr_msg_batch *batch, unsigned index) {
    return ntohl(batch->addresses[index].sin_addr.s_addr);
}
uint16_t pkr_batch_source_port(const pkr_msg_batch *batch, unsigned index) {
    return ntohs(batch->addresses[index].sin_port);
}

static inline void pkr_batch_prepare_message(pkr_msg_batch *batch, unsigned index, size_t iov_count, uint32_t ip, uint16_t port) {
    batch->addresses[index].sin_family = AF_INET;
    batch->addresses[index].sin_addr.s_addr = htonl(ip);
    batch->addresses[index].sin_port = htons(port);
    struct msghdr *message = &batch->headers[index].msg_hdr;
    message->msg_name = batch->connected ? NULL : &batch->addresses[index];
    message->msg_namelen = batch->connected ? 0 : sizeof(struct sockaddr_in);
    message->msg_iov = &batch->vectors[2 * index];
    message->msg_iovlen = iov_count;
    message->msg_control = NULL;
    message->msg_controllen = 0;
    message->msg_flags = 0;
}

void pkr_batch_prepare(pkr_msg_batch *batch, unsigned index, unsigned length, uint32_t ip, uint16_t port) {
    struct iovec *vectors = &batch->vectors[2 * index];
    vectors[0].iov_base = pkr_batch_buffer(batch, index);
    vectors[0].iov_len = length;
    /* Empty, but where a segmented run's iovec array expects the message's second part. */
    vectors[1].iov_base = (uint8_t *)vectors[0].iov_base + length;
    vectors[1].iov_len = 0;
    pkr_batch_prepare_message(batch, index, 1, ip, port);
}

void pkr_batch_prepare_split(pkr_msg_batch *batch, unsigned index, unsigned head_length, const void *tail, unsigned tail_length,
                             uint32_t ip, uint16_t port) {
    struct iovec *vectors = &batch->vectors[2 * index];
    vectors[0].iov_base = pkr_batch_buffer(batch, index);
    vectors[0].iov_len = head_length;
    vectors[1].iov_base = (void *)tail;
    vectors[1].iov_len = tail_length;
    pkr_batch_prepare_message(batch, index, 2, ip, port);
}

pkr_send_layout pkr_batch_send_layout(pkr_msg_batch *batch) {
    for (unsigned index = 0; index < batch->count; index++) {
        memset(&batch->addresses[index], 0, sizeof(struct sockaddr_in));
        pkr_batch_prepare(batch, index, 0, 0, 0);
    }
    pkr_send_layout layout;
    layout.buffers = batch->buffers;
    layout.buffer_size = batch->buffer_size;
    layout.header_stride = (uint32_t)sizeof(struct mmsghdr);
    layout.vectors = batch->vectors;
    layout.addresses = batch->addresses;
    layout.vector_counts = (uint8_t *)&batch->headers[0].msg_hdr.msg_iovlen;
    return layout;
}

void pkr_batch_send_connected(pkr_msg_batch *batch) {
    batch->connected = 1;
    for (unsigned index = 0; index < batch->count; index++) {
        batch->headers[index].msg_hdr.msg_name = NULL;
        batch->headers[index].msg_hdr.msg_namelen = 0;
    }
}

unsigned pkr_batch_copy_prepared(const pkr_msg_batch *batch, unsigned index, void *destination, unsigned capacity) {
    unsigned copied = 0;
    for (unsigned part = 0; part < 2; part++) {
        const struct iovec *vector = &batch->vectors[2 * index + part];
        size_t length = vector->iov_len;
        if (length > capacity - copied) length = capacity - copied;
        if (length > 0) memcpy((uint8_t *)destination + copied, vector->iov_base, length);
        copied += (unsigned)length;
    }
    return copied;
}

/* Sends `count` prepared messages from `headers`; returns how many were sent. Counts the
 * system calls made into `tally`. */
static unsigned pkr_send_messages(int fd, struct mmsghdr *headers, unsigned count, pkr_send_tally *tally) {
    unsigned sent = 0;
    while (sent < count) {
        int result = sendmmsg(fd, headers + sent, count - sent, MSG_DONTWAIT);
        if (tally) tally->calls += 1;
        if (result < 0) {
            if (errno == EINTR) continue;
            /* A failing datagram (e.g. an unreachable destination) must not hold back the rest:
             * it is passed over (and counted as failed, not as delivered). */
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                sent++;
                if (tally) tally->failed += 1;
                continue;
            }
            break;
        }
        if (result == 0) break;
        sent += (unsigned)result;
    }
    return sent;
}

int pkr_batch_send(int fd, pkr_msg_batch *batch, unsigned count) {
    return (int)pkr_send_messages(fd, batch->headers, count, NULL);
}

int pkr_batch_send_tallied(int fd, pkr_msg_batch *batch, unsigned count, pkr_send_tally *tally) {
    unsigned sent = pkr_send_messages(fd, batch->headers, count, tally);
    if (tally) tally->messages += sent;
    return (int)sent;
}

static int pkr_same_destination(const struct sockaddr_in *a, const struct sockaddr_in *b) {
    return a->sin_addr.s_addr == b->sin_addr.s_addr && a->sin_port == b->sin_port;
}

int pkr_batch_send_segmented(int fd, pkr_msg_batch *batch, unsigned count, pkr_send_tally *tally) {
    /* Runs: consecutive datagrams to one destination, all of the first one's size except
     * possibly a shorter last one, within the kernel's limits. */
    unsigned runs = 0;
    unsigned index = 0;
    while (index < count) {
        unsigned first = index;
        size_t size = pkr_batch_prepared_length(batch, first);
        size_t total = size;
        index++;
        if (size <= (batch->sends_to6 ? PKR_MAX_SEGMENT_SIZE6 : PKR_MAX_SEGMENT_SIZE)) {
            while (index < count && index - first < PKR_MAX_SEGMENTS) {
                size_t next = pkr_batch_prepared_length(batch, index);
                if (next > size || next == 0 || total + next > PKR_MAX_SEGMENTED_BYTES) break;
                if (!pkr_same_destination(&batch->addresses[index], &batch->addresses[first])) break;
                total += next;
                index++;
                if (next < size) break;
            }
        }
        unsigned length = index - first;
        struct msghdr *message = &batch->run_headers[runs].msg_hdr;
        memset(message, 0, sizeof(struct msghdr));
        if (batch->sends_to6) {
            message->msg_name = &batch->destination6;
            message->msg_namelen = sizeof(struct sockaddr_in6);
        } else if (!batch->connected) {
            message->msg_name = &batch->addresses[first];
            message->msg_namelen = sizeof(struct sockaddr_in);
        }
        /* Both parts of every message of the run, in order: the segments are cut from the
         * run's bytes by size, wherever each part lies. */
        message->msg_iov = &batch->vectors[2 * first];
        message->msg_iovlen = (size_t)length * 2;
        if (length > 1) {
            uint8_t *control = batch->run_controls + (size_t)runs * PKR_RUN_CONTROL_SIZE;
            memset(control, 0, PKR_RUN_CONTROL_SIZE);
            message->msg_control = control;
            message->msg_controllen = PKR_RUN_CONTROL_SIZE;
            struct cmsghdr *header = CMSG_FIRSTHDR(message);
            header->cmsg_level = SOL_UDP;
            header->cmsg_type = UDP_SEGMENT;
            header->cmsg_len = CMSG_LEN(sizeof(uint16_t));
            uint16_t segment = (uint16_t)size;
            memcpy(CMSG_DATA(header), &segment, sizeof(segment));
        }
        batch->run_first[runs] = first;
        batch->run_length[runs] = length;
        runs++;
    }
    /* Sent in order; a run the kernel refuses as a whole (a device without segmentation
     * support answers EIO) goes out again datagram by datagram. */
    unsigned sent = 0;
    unsigned run = 0;
    while (run < runs) {
        int result = sendmmsg(fd, batch->run_headers + run, runs - run, MSG_DONTWAIT);
        if (tally) tally->calls += 1;
        if (result < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            if (batch->run_length[run] > 1) {
                unsigned resent = pkr_send_messages(fd, batch->headers + batch->run_first[run], batch->run_length[run], tally);
                if (tally) { tally->messages += resent; tally->fallbacks += 1; }
                sent += resent;
                if (resent < batch->run_length[run]) break;
            } else {
                /* A single datagram the kernel refuses is skipped (and counted as failed), as by the
                 * plain path. */
                sent += 1;
                if (tally) {
                    tally->messages += 1;
                    tally->failed += 1;
                }
            }
            run++;
            continue;
        }
        if (result == 0) break;
        for (int done = 0; done < result; done++) sent += batch->run_length[run + (unsigned)done];
        if (tally) tally->messages += (unsigned)result;
        run += (unsigned)result;
    }
    return (int)sent;
}

unsigned pkr_batch_segment_size(const pkr_msg_batch *batch, unsigned index) { return batch->segment_sizes[index]; }

int pkr_batch_send6(int fd, pkr_msg_batch *batch, unsigned count, uint64_t high, uint64_t low, uint16_t port, int segmented,
                    pkr_send_tally *tally) {
    memset(&batch->destination6, 0, sizeof(batch->destination6));
    batch->destination6.sin6_family = AF_INET6;
    batch->destination6.sin6_port = htons(port);
    pkr_ipv6_join(high, low, batch->destination6.sin6_addr.s6_addr);
    batch->sends_to6 = 1;
    for (unsigned i = 0; i < count; i++) {
        batch->headers[i].msg_hdr.msg_name = &batch->destination6;
        batch->headers[i].msg_hdr.msg_namelen = sizeof(struct sockaddr_in6);
    }
    int sent;
    if (segmented) {
        sent = pkr_batch_send_segmented(fd, batch, count, tally);
    } else {
        sent = (int)pkr_send_messages(fd, batch->headers, count, tally);
        if (tally) tally->messages += (unsigned)sent;
    }
    /* Every message as pkr_batch_prepare left it, for the next send. */
    for (unsigned i = 0; i < count; i++) {
        batch->headers[i].msg_hdr.msg_name = batch->connected ? NULL : &batch->addresses[i];
        batch->headers[i].msg_hdr.msg_namelen = batch->connected ? 0 : sizeof(struct sockaddr_in);
    }
    batch->sends_to6 = 0;
    return sent;
}

int pkr_udp_enable_receive_offload(int fd) {
    int on = 1;
    return setsockopt(fd, SOL_UDP, UDP_GRO, &on, sizeof(on)) == 0 ? 0 : -errno;
}

int pkr_udp_receive_offload_supported(void) {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    int supported = pkr_udp_enable_receive_offload(fd) == 0;
    close(fd);
    return supported;
}

int pkr_udp_segmentation_supported(void) {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    int size = 1200;
    int supported = setsockopt(fd, SOL_UDP, UDP_SEGMENT, &size, sizeof(size)) == 0;
    close(fd);
    return supported;
}

void pkr_socket_size_buffers(int fd, int receive_buffer, int send_buffer) {
    /* The FORCE options pass rmem_max and wmem_max where the relay may (root); else the
     * kernel's limit applies. */
    if (receive_buffer > 0) {
        if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &receive_buffer, sizeof(int)) != 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof(int));
    }
    if (send_buffer > 0) {
        if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &send_buffer, sizeof(int)) != 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &send_buffer, sizeof(int));
    }
}

int pkr_udp_open(uint32_t ip, uint16_t port, int receive_buffer, int send_buffer) {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    pkr_socket_size_buffers(fd, receive_buffer, send_buffer);
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(ip);
    address.sin_port = htons(port);
    if (bind(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}

int pkr_udp_open_send_twin(int fd, int send_buffer) {
    struct sockaddr_in address;
    socklen_t length = sizeof(address);
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return -errno;
    /* `fd` was bound alone, so the port was free; the flag lets the twin join it now. A later
     * bind on the port still fails unless it asks for SO_REUSEPORT as the same user, and such a
     * socket joins the group behind the twin, where the program sends it nothing. */
    int on = 1, off = 0;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) != 0) return -errno;
    int error = 0;
    int twin = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (twin < 0) {
        error = errno;
        goto fail;
    }
    if (setsockopt(twin, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) != 0) {
        error = errno;
        goto fail;
    }
    if (send_buffer > 0) {
        if (setsockopt(twin, SOL_SOCKET, SO_SNDBUFFORCE, &send_buffer, sizeof(int)) != 0)
            setsockopt(twin, SOL_SOCKET, SO_SNDBUF, &send_buffer, sizeof(int));
    }
    if (bind(twin, (struct sockaddr *)&address, length) != 0) {
        error = errno;
        goto fail;
    }
    /* The group's sockets in joining order are `fd`, then the twin: index 0 takes everything. */
    struct sock_filter code[] = {BPF_STMT(BPF_RET | BPF_K, 0)};
    struct sock_fprog program = {.len = 1, .filter = code};
    if (setsockopt(twin, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &program, sizeof(program)) != 0) {
        error = errno;
        goto fail;
    }
    return twin;
fail:
    if (twin >= 0) close(twin);
    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &off, sizeof(off));
    return -error;
}

int pkr_udp_connect_peer(int fd, int send_fd, uint32_t ip, uint16_t port) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(ip);
    address.sin_port = htons(port);
    int twin = send_fd >= 0 && send_fd != fd;
    /* The twin first: of two sockets connected to the same peer, the kernel hands the peer's
     * datagrams to the one connected last, and that must be `fd`, the one the relay reads. */
    if (twin && connect(send_fd, (struct sockaddr *)&address, sizeof(address)) != 0) return -errno;
    if (connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
        int error = errno;
        /* A connected twin alone would take the peer's datagrams, which nobody reads. */
        if (twin) pkr_udp_disconnect(send_fd);
        return -error;
    }
    return 0;
}

int pkr_udp_disconnect(int fd) {
    struct sockaddr unspecified;
    memset(&unspecified, 0, sizeof(unspecified));
    unspecified.sa_family = AF_UNSPEC;
    return connect(fd, &unspecified, sizeof(unspecified)) == 0 ? 0 : -errno;
}

int pkr_udp_open_connected_reader(int fd, int send_fd, uint32_t ip, uint16_t port, int receive_buffer) {
    if (send_fd < 0 || send_fd == fd) return -EINVAL;
    struct sockaddr_in local;
    socklen_t length = sizeof(local);
    if (getsockname(fd, (struct sockaddr *)&local, &length) != 0) return -errno;
    int on = 1, error = 0;
    int reader = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (reader < 0) return -errno;
    if (receive_buffer > 0) {
        if (setsockopt(reader, SOL_SOCKET, SO_RCVBUFFORCE, &receive_buffer, sizeof(int)) != 0)
            setsockopt(reader, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof(int));
    }
    /* It joins `fd`'s group behind the twin, where the group's program sends it nothing; only
     * its connection gives it the peer's datagrams. */
    if (setsockopt(reader, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) != 0 || bind(reader, (struct sockaddr *)&local, length) != 0) {
        error = errno;
        close(reader);
        return -error;
    }
    /* The twin first, the reader last: the one connected last takes the peer's datagrams. */
    error = -pkr_udp_connect_peer(reader, send_fd, ip, port);
    if (error != 0) {
        close(reader);
        return -error;
    }
    return reader;
}

int pkr_udp_connected_reader_supported(void) {
    uint32_t loopback = 0x7f000001;
    int fd = pkr_udp_open(loopback, 0, 0, 0);
    if (fd < 0) return 0;
    int twin = pkr_udp_open_send_twin(fd, 0);
    int peer = pkr_udp_open(loopback, 0, 0, 0);
    int other = pkr_udp_open(loopback, 0, 0, 0);
    int port = pkr_udp_local_port(fd), peer_port = pkr_udp_local_port(peer);
    int reader = -1, supported = 0;
    if (twin >= 0 && peer >= 0 && other >= 0 && port > 0 && peer_port > 0)
        reader = pkr_udp_open_connected_reader(fd, twin, loopback, (uint16_t)peer_port, 0);
    if (reader >= 0) {
        int arrived = 0, strays = 0, misplaced = 0, returned = 0;
        char byte[8];
        for (int probe = 0; probe < 4; probe++) {
            if (pkr_udp_send(peer, "pkrelay", 7, loopback, (uint16_t)port) != 7) break;
            if (pkr_udp_send(other, "pkrelay", 7, loopback, (uint16_t)port) != 7) break;
            if (send(twin, "pkrelay", 7, MSG_DONTWAIT) != 7) break;
            struct pollfd ready = {.fd = reader, .events = POLLIN};
            if (poll(&ready, 1, 200) == 1 && recv(reader, byte, sizeof(byte), MSG_DONTWAIT) == 7) arrived++;
            struct pollfd stray = {.fd = fd, .events = POLLIN};
            if (poll(&stray, 1, 200) == 1 && recv(fd, byte, sizeof(byte), MSG_DONTWAIT) == 7) strays++;
            struct pollfd back = {.fd = peer, .events = POLLIN};
            if (poll(&back, 1, 200) == 1 && recv(peer, byte, sizeof(byte), MSG_DONTWAIT) == 7) returned++;
            while (recv(fd, byte, sizeof(byte), MSG_DONTWAIT) >= 0) misplaced++;
            while (recv(reader, byte, sizeof(byte), MSG_DONTWAIT) >= 0) misplaced++;
            while (recv(twin, byte, sizeof(byte), MSG_DONTWAIT) >= 0) misplaced++;
        }
        supported = arrived == 4 && strays == 4 && returned == 4 && misplaced == 0;
        close(reader);
    }
    if (other >= 0) close(other);
    if (peer >= 0) close(peer);
    if (twin >= 0) close(twin);
    close(fd);
    return supported;
}

int pkr_udp_connected_twin_supported(void) {
    uint32_t loopback = 0x7f000001;
    int fd = pkr_udp_open(loopback, 0, 0, 0);
    if (fd < 0) return 0;
    int twin = pkr_udp_open_send_twin(fd, 0);
    int peer = pkr_udp_open(loopback, 0, 0, 0);
    int other = pkr_udp_open(loopback, 0, 0, 0);
    int port = pkr_udp_local_port(fd), peer_port = pkr_udp_local_port(peer);
    int supported = 0;
    if (twin >= 0 && peer >= 0 && other >= 0 && port > 0 && peer_port > 0 &&
        pkr_udp_connect_peer(fd, twin, loopback, (uint16_t)peer_port) == 0) {
        int arrived = 0, strayed = 0, returned = 0, foreign = 0;
        char byte[8];
        for (int probe = 0; probe < 4; probe++) {
            if (pkr_udp_send(peer, "pkrelay", 7, loopback, (uint16_t)port) != 7) break;
            if (pkr_udp_send(other, "pkrelay", 7, loopback, (uint16_t)port) != 7) break;
            if (send(twin, "pkrelay", 7, MSG_DONTWAIT) != 7) break;
            struct pollfd ready = {.fd = fd, .events = POLLIN};
            if (poll(&ready, 1, 200) == 1 && recv(fd, byte, sizeof(byte), MSG_DONTWAIT) == 7) arrived++;
            struct pollfd back = {.fd = peer, .events = POLLIN};
            if (poll(&back, 1, 200) == 1 && recv(peer, byte, sizeof(byte), MSG_DONTWAIT) == 7) returned++;
            while (recv(fd, byte, sizeof(byte), MSG_DONTWAIT) >= 0) foreign++;
            while (recv(twin, byte, sizeof(byte), MSG_DONTWAIT) >= 0) strayed++;
        }
        supported = arrived == 4 && returned == 4 && strayed == 0 && foreign == 0;
    }
    if (other >= 0) close(other);
    if (peer >= 0) close(peer);
    if (twin >= 0) close(twin);
    close(fd);
    return supported;
}

int pkr_udp_send_twin_supported(void) {
    uint32_t loopback = 0x7f000001;
    int fd = pkr_udp_open(loopback, 0, 0, 0);
    if (fd < 0) return 0;
    int twin = pkr_udp_open_send_twin(fd, 0);
    int port = pkr_udp_local_port(fd);
    int supported = 0;
    if (twin >= 0 && port > 0) {
        int sender = pkr_udp_open(loopback, 0, 0, 0);
        int third = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (sender >= 0 && third >= 0) {
            struct sockaddr_in address;
            memset(&address, 0, sizeof(address));
            address.sin_family = AF_INET;
            address.sin_addr.s_addr = htonl(loopback);
            address.sin_port = htons((uint16_t)port);
            int refused = bind(third, (struct sockaddr *)&address, sizeof(address)) != 0 && errno == EADDRINUSE;
            int arrived = 0, strayed = 0;
            for (int probe = 0; probe < 4; probe++) {
                if (pkr_udp_send(sender, "pkrelay", 7, loopback, (uint16_t)port) != 7) break;
                struct pollfd ready = {.fd = fd, .events = POLLIN};
                char byte[8];
                if (poll(&ready, 1, 200) == 1 && recv(fd, byte, sizeof(byte), MSG_DONTWAIT) == 7) arrived++;
                if (recv(twin, byte, sizeof(byte), MSG_DONTWAIT) >= 0) strayed++;
            }
            supported = refused && arrived == 4 && strayed == 0;
        }
        if (sender >= 0) close(sender);
        if (third >= 0) close(third);
    }
    if (twin >= 0) close(twin);
    close(fd);
    return supported;
}

int pkr_udp_local_port(int fd) {
    struct sockaddr_in address;
    socklen_t length = sizeof(address);
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return -errno;
    return ntohs(address.sin_port);
}

int pkr_udp_send(int fd, const void *data, unsigned length, uint32_t ip, uint16_t port) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(ip);
    address.sin_port = htons(port);
    ssize_t result = sendto(fd, data, length, MSG_DONTWAIT, (struct sockaddr *)&address, sizeof(address));
    return result < 0 ? -errno : (int)result;
}

int pkr_close(int fd) { return close(fd); }

int pkr_ipv4_parse(const char *text, uint32_t *ip) {
    struct in_addr address;
    if (inet_pton(AF_INET, text, &address) != 1) return -1;
    *ip = ntohl(address.s_addr);
    return 0;
}

int pkr_epoll_create(void) {
    int fd = epoll_create1(EPOLL_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int pkr_epoll_add(int epoll_fd, int fd, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof(event));
    event.events = EPOLLIN;
    event.data.u64 = token;
    return epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) == 0 ? 0 : -errno;
}

int pkr_epoll_remove(int epoll_fd, int fd) {
    return epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, NULL) == 0 ? 0 : -errno;
}

int pkr_epoll_wait(int epoll_fd, uint64_t *tokens, int capacity, int timeout_ms) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int ready = epoll_wait(epoll_fd, events, capacity, timeout_ms);
    if (ready < 0) return errno == EINTR ? 0 : -errno;
    for (int i = 0; i < ready; i++) tokens[i] = events[i].data.u64;
    return ready;
}

int pkr_eventfd_create(void) {
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

void pkr_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t ignored = write(fd, &one, sizeof(one));
    (void)ignored;
}

void pkr_eventfd_drain(int fd) {
    uint64_t value;
    ssize_t ignored = read(fd, &value, sizeof(value));
    (void)ignored;
}

void pkr_set_thread_name(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof(shortened) - 1);
    shortened[sizeof(shortened) - 1] = 0;
    pthread_setname_np(pthread_self(), shortened);
}

int32_t pkr_thread_id(void) { return (int32_t)gettid(); }

int pkr_available_cpus(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
    int count = CPU_COUNT(&set);
    return count > 0 ? count : 1;
}

int pkr_pin_thread(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set) == 0 ? 0 : -errno;
}

int64_t pkr_raise_open_file_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    if (limit.rlim_cur < limit.rlim_max) {
        struct rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    }
    return limit.rlim_cur == RLIM_INFINITY ? INT64_MAX : (int64_t)limit.rlim_cur;
}

int64_t pkr_monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static int64_t pkr_clock_us(clockid_t clock) {
    struct timespec now;
    if (clock_gettime(clock, &now) != 0) return 0;
    return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

int64_t pkr_thread_cpu_us(void) { return pkr_clock_us(CLOCK_THREAD_CPUTIME_ID); }

int64_t pkr_process_cpu_us(void) { return pkr_clock_us(CLOCK_PROCESS_CPUTIME_ID); }

int64_t pkr_monotonic_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

int64_t pkr_realtime_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}
