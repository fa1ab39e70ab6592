#define _GNU_SOURCE
#include "CSocketShims.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* IPv6 peers of the WebRTC ports. An address crosses into Swift as two 64-bit halves, each the
 * big-endian reading of eight of its bytes: no pointers into C structures, and the halves
 * compare and hash as integers. */

void pkr_ipv6_split(const uint8_t address[16], uint64_t *high, uint64_t *low) {
    uint64_t h = 0, l = 0;
    for (int i = 0; i < 8; i++) h = h << 8 | address[i];
    for (int i = 8; i < 16; i++) l = l << 8 | address[i];
    *high = h;
    *low = l;
}

void pkr_ipv6_join(uint64_t high, uint64_t low, uint8_t address[16]) {
    for (int i = 7; i >= 0; i--, high >>= 8) address[i] = (uint8_t)high;
    for (int i = 15; i >= 8; i--, low >>= 8) address[i] = (uint8_t)low;
}

int pkr_ipv6_parse(const char *text, uint64_t *high, uint64_t *low) {
    struct in6_addr address;
    if (inet_pton(AF_INET6, text, &address) != 1) return -1;
    pkr_ipv6_split(address.s6_addr, high, low);
    return 0;
}

static void pkr_ipv6_address(struct sockaddr_in6 *address, uint64_t high, uint64_t low, uint16_t port) {
    memset(address, 0, sizeof(*address));
    address->sin6_family = AF_INET6;
    address->sin6_port = htons(port);
    pkr_ipv6_join(high, low, address->sin6_addr.s6_addr);
}

int pkr_udp_open6(uint64_t high, uint64_t low, uint16_t port, int receive_buffer, int send_buffer) {
    int fd = socket(AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    /* IPv6 only: IPv4 clients reach the IPv4 socket on the same number, whose sources the data
     * plane keys without a table. */
    int on = 1;
    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on));
    pkr_socket_size_buffers(fd, receive_buffer, send_buffer);
    struct sockaddr_in6 address;
    pkr_ipv6_address(&address, high, low, port);
    if (bind(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}

int pkr_udp_send6(int fd, const void *data, unsigned length, uint64_t high, uint64_t low, uint16_t port) {
    struct sockaddr_in6 address;
    pkr_ipv6_address(&address, high, low, port);
    ssize_t sent = sendto(fd, data, length, MSG_DONTWAIT, (struct sockaddr *)&address, sizeof(address));
    return sent < 0 ? -errno : (int)sent;
}

int pkr_tcp_listen6(uint64_t high, uint64_t low, uint16_t port, int backlog) {
    int fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    int on = 1;
    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on));
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    struct sockaddr_in6 address;
    pkr_ipv6_address(&address, high, low, port);
    if (bind(fd, (struct sockaddr *)&address, sizeof(address)) != 0 || listen(fd, backlog) != 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}
