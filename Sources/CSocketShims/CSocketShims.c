#define _GNU_SOURCE
#include "CSocketShims.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
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

struct pkr_msg_batch {
    unsigned count;
    unsigned buffer_size;
    uint8_t *buffers;
    struct mmsghdr *headers;
    struct iovec *vectors;
    struct sockaddr_in *addresses;
};

pkr_msg_batch *pkr_batch_create(unsigned count, unsigned buffer_size) {
    pkr_msg_batch *batch = calloc(1, sizeof(pkr_msg_batch));
    if (!batch) return NULL;
    batch->count = count;
    batch->buffer_size = buffer_size;
    batch->buffers = calloc(count, buffer_size);
    batch->headers = calloc(count, sizeof(struct mmsghdr));
    batch->vectors = calloc(count, sizeof(struct iovec));
    batch->addresses = calloc(count, sizeof(struct sockaddr_in));
    if (!batch->buffers || !batch->headers || !batch->vectors || !batch->addresses) {
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
    free(batch);
}

unsigned pkr_batch_count(const pkr_msg_batch *batch) { return batch->count; }
unsigned pkr_batch_buffer_size(const pkr_msg_batch *batch) { return batch->buffer_size; }
uint8_t *pkr_batch_buffer(pkr_msg_batch *batch, unsigned index) {
    return batch->buffers + (size_t)index * batch->buffer_size;
}

int pkr_batch_receive(int fd, pkr_msg_batch *batch) {
    for (unsigned i = 0; i < batch->count; i++) {
        batch->vectors[i].iov_base = pkr_batch_buffer(batch, i);
        batch->vectors[i].iov_len = batch->buffer_size;
        memset(&batch->headers[i].msg_hdr, 0, sizeof(struct msghdr));
        batch->headers[i].msg_hdr.msg_iov = &batch->vectors[i];
        batch->headers[i].msg_hdr.msg_iovlen = 1;
        batch->headers[i].msg_hdr.msg_name = &batch->addresses[i];
        batch->headers[i].msg_hdr.msg_namelen = sizeof(struct sockaddr_in);
        batch->headers[i].msg_len = 0;
    }
    int received = recvmmsg(fd, batch->headers, batch->count, MSG_DONTWAIT, NULL);
    if (received < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
        return -errno;
    }
    for (int i = 0; i < received; i++) {
        if (batch->headers[i].msg_hdr.msg_flags & MSG_TRUNC) batch->headers[i].msg_len = 0;
        if (batch->addresses[i].sin_family != AF_INET) batch->headers[i].msg_len = 0;
    }
    return received;
}

unsigned pkr_batch_length(const pkr_msg_batch *batch, unsigned index) { return batch->headers[index].msg_len; }
unsigned pkr_batch_prepared_length(const pkr_msg_batch *batch, unsigned index) { return (unsigned)batch->vectors[index].iov_len; }
uint32_t pkr_batch_source_ip(const pkr_msg_batch *batch, unsigned index) {
    return ntohl(batch->addresses[index].sin_addr.s_addr);
}
uint16_t pkr_batch_source_port(const pkr_msg_batch *batch, unsigned index) {
    return ntohs(batch->addresses[index].sin_port);
}

void pkr_batch_prepare(pkr_msg_batch *batch, unsigned index, unsigned length, uint32_t ip, uint16_t port) {
    batch->addresses[index].sin_family = AF_INET;
    batch->addresses[index].sin_addr.s_addr = htonl(ip);
    batch->addresses[index].sin_port = htons(port);
    batch->vectors[index].iov_base = pkr_batch_buffer(batch, index);
    batch->vectors[index].iov_len = length;
    memset(&batch->headers[index].msg_hdr, 0, sizeof(struct msghdr));
    batch->headers[index].msg_hdr.msg_iov = &batch->vectors[index];
    batch->headers[index].msg_hdr.msg_iovlen = 1;
    batch->headers[index].msg_hdr.msg_name = &batch->addresses[index];
    batch->headers[index].msg_hdr.msg_namelen = sizeof(struct sockaddr_in);
}

int pkr_batch_send(int fd, pkr_msg_batch *batch, unsigned count) {
    unsigned sent = 0;
    while (sent < count) {
        int result = sendmmsg(fd, batch->headers + sent, count - sent, MSG_DONTWAIT);
        if (result < 0) {
            if (errno == EINTR) continue;
            /* A failing datagram (e.g. an unreachable destination) must not hold back the rest. */
            if (errno != EAGAIN && errno != EWOULDBLOCK) { sent++; continue; }
            break;
        }
        if (result == 0) break;
        sent += (unsigned)result;
    }
    return (int)sent;
}

int pkr_udp_open(uint32_t ip, uint16_t port, int receive_buffer, int send_buffer) {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    if (receive_buffer > 0) {
        if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &receive_buffer, sizeof(int)) != 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof(int));
    }
    if (send_buffer > 0) {
        if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &send_buffer, sizeof(int)) != 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &send_buffer, sizeof(int));
    }
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

int64_t pkr_realtime_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}
