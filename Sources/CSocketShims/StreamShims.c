#define _GNU_SOURCE
#include "CSocketShims.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

/* A TCP connection carrying datagrams with RFC 4571 framing: each one preceded by its length in
 * two bytes, network order. Both buffers are allocated once, when the connection is accepted;
 * reading, framing and sending allocate nothing. */
struct pkr_stream {
    int fd;
    uint8_t *receive;
    unsigned receive_capacity;
    unsigned receive_start;
    unsigned receive_end;
    /* Bytes still to pass over of a frame longer than the reader takes. */
    unsigned skip;
    uint8_t *send;
    unsigned send_capacity;
    unsigned send_start;
    unsigned send_end;
};

int pkr_tcp_listen(uint32_t ip, uint16_t port, int backlog) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    /* A restarted relay binds again at once, while connections of the one before linger in
     * TIME_WAIT. */
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(ip);
    address.sin_port = htons(port);
    if (bind(fd, (struct sockaddr *)&address, sizeof(address)) != 0 || listen(fd, backlog) != 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}

/* Options every accepted connection gets. */
static void pkr_tcp_accepted(int fd) {
    /* Media frames are written whole and late ones are worth nothing: no Nagle delay. */
    int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
    /* The kernel keeps at most this much not yet sent (beyond what is in flight): without a
     * bound its send buffer grows to megabytes for a slow reader, seconds of media that would
     * arrive late, and the relay's own buffer, which drops whole datagrams, never fills. */
    int unsent = PKR_STREAM_UNSENT_LIMIT;
    setsockopt(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, &unsent, sizeof(unsent));
}

int pkr_tcp_accept(int listen_fd, uint32_t *ip, uint16_t *port) {
    struct sockaddr_in address;
    socklen_t length = sizeof(address);
    int fd = accept4(listen_fd, (struct sockaddr *)&address, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return -errno;
    pkr_tcp_accepted(fd);
    *ip = ntohl(address.sin_addr.s_addr);
    *port = ntohs(address.sin_port);
    return fd;
}

int pkr_tcp_accept6(int listen_fd, uint64_t *high, uint64_t *low, uint16_t *port) {
    struct sockaddr_in6 address;
    socklen_t length = sizeof(address);
    int fd = accept4(listen_fd, (struct sockaddr *)&address, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return -errno;
    pkr_tcp_accepted(fd);
    pkr_ipv6_split(address.sin6_addr.s6_addr, high, low);
    *port = ntohs(address.sin6_port);
    return fd;
}

pkr_stream *pkr_stream_create(int fd, unsigned receive_capacity, unsigned send_capacity) {
    pkr_stream *stream = calloc(1, sizeof(pkr_stream));
    if (stream == NULL) return NULL;
    stream->receive = malloc(receive_capacity);
    stream->send = malloc(send_capacity);
    if (stream->receive == NULL || stream->send == NULL) {
        free(stream->receive);
        free(stream->send);
        free(stream);
        return NULL;
    }
    stream->fd = fd;
    stream->receive_capacity = receive_capacity;
    stream->send_capacity = send_capacity;
    return stream;
}

void pkr_stream_destroy(pkr_stream *stream) {
    if (stream == NULL) return;
    if (stream->fd >= 0) close(stream->fd);
    free(stream->receive);
    free(stream->send);
    free(stream);
}

int pkr_stream_fd(const pkr_stream *stream) { return stream->fd; }

int pkr_stream_read(pkr_stream *stream) {
    /* What is left is less than one whole frame: moved to the front, it leaves room for the
     * rest, since the buffer holds the longest frame taken. */
    if (stream->receive_start == stream->receive_end) {
        stream->receive_start = stream->receive_end = 0;
    } else if (stream->receive_start > 0) {
        memmove(stream->receive, stream->receive + stream->receive_start, stream->receive_end - stream->receive_start);
        stream->receive_end -= stream->receive_start;
        stream->receive_start = 0;
    }
    unsigned room = stream->receive_capacity - stream->receive_end;
    if (room == 0) return -ENOBUFS;
    ssize_t got = recv(stream->fd, stream->receive + stream->receive_end, room, MSG_DONTWAIT);
    if (got < 0) return errno == EINTR ? -EAGAIN : -errno;
    stream->receive_end += (unsigned)got;
    return (int)got;
}

int pkr_stream_next_frame(pkr_stream *stream, unsigned max_length, uint8_t **frame, unsigned *length, unsigned *skipped) {
    for (;;) {
        unsigned available = stream->receive_end - stream->receive_start;
        if (stream->skip > 0) {
            unsigned passed = stream->skip < available ? stream->skip : available;
            stream->receive_start += passed;
            stream->skip -= passed;
            if (stream->skip > 0) return 0;
            continue;
        }
        if (available < 2) return 0;
        const uint8_t *head = stream->receive + stream->receive_start;
        unsigned framed = ((unsigned)head[0] << 8) | head[1];
        if (framed > max_length || framed + 2 > stream->receive_capacity) {
            stream->skip = framed + 2;
            *skipped += 1;
            continue;
        }
        if (available < framed + 2) return 0;
        *frame = stream->receive + stream->receive_start + 2;
        *length = framed;
        stream->receive_start += framed + 2;
        return 1;
    }
}

/* Room for `needed` more bytes at the end of the send buffer, moving what waits to the front
 * when that makes it. */
static int pkr_stream_make_room(pkr_stream *stream, unsigned needed) {
    if (stream->send_capacity - stream->send_end >= needed) return 1;
    unsigned waiting = stream->send_end - stream->send_start;
    if (stream->send_capacity - waiting < needed) return 0;
    memmove(stream->send, stream->send + stream->send_start, waiting);
    stream->send_start = 0;
    stream->send_end = waiting;
    return 1;
}

int pkr_stream_queue(pkr_stream *stream, const void *data, unsigned length) {
    if (length > 0xFFFF || !pkr_stream_make_room(stream, length + 2)) return 0;
    uint8_t *at = stream->send + stream->send_end;
    at[0] = (uint8_t)(length >> 8);
    at[1] = (uint8_t)length;
    memcpy(at + 2, data, length);
    stream->send_end += length + 2;
    return 1;
}

unsigned pkr_stream_queue_batch(pkr_stream *stream, const pkr_msg_batch *batch, unsigned count) {
    unsigned queued = 0;
    for (unsigned index = 0; index < count; index++) {
        unsigned length = pkr_batch_prepared_length(batch, index);
        if (length > 0xFFFF || !pkr_stream_make_room(stream, length + 2)) break;
        uint8_t *at = stream->send + stream->send_end;
        at[0] = (uint8_t)(length >> 8);
        at[1] = (uint8_t)length;
        pkr_batch_copy_prepared(batch, index, at + 2, length);
        stream->send_end += length + 2;
        queued += 1;
    }
    return queued;
}

int pkr_stream_flush(pkr_stream *stream) {
    while (stream->send_start < stream->send_end) {
        ssize_t sent = send(stream->fd, stream->send + stream->send_start, stream->send_end - stream->send_start, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (sent < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            return -errno;
        }
        stream->send_start += (unsigned)sent;
    }
    if (stream->send_start == stream->send_end) stream->send_start = stream->send_end = 0;
    return (int)(stream->send_end - stream->send_start);
}

unsigned pkr_stream_pending(const pkr_stream *stream) { return stream->send_end - stream->send_start; }

int pkr_epoll_watch(int epoll_fd, int fd, uint64_t token, int writable) {
    struct epoll_event event;
    memset(&event, 0, sizeof(event));
    event.events = EPOLLIN | (writable ? EPOLLOUT : 0);
    event.data.u64 = token;
    return epoll_ctl(epoll_fd, EPOLL_CTL_MOD, fd, &event) == 0 ? 0 : -errno;
}
