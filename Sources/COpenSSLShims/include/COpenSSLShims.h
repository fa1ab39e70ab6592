#pragma once

#include <stddef.h>
#include <stdint.h>

/*
 * Thin wrappers over OpenSSL, so Swift never touches OpenSSL's macros or
 * version-dependent signatures. Every function returns 1 on success, 0 on
 * failure, unless documented otherwise.
 */

/* Fills buffer with count bytes from OpenSSL's CSPRNG. */
int pkr_rand_bytes(uint8_t *buffer, size_t count);

/* HMAC-SHA-256 of message under key; writes 32 bytes to code. */
int pkr_hmac_sha256(const uint8_t *key, size_t key_length,
                    const uint8_t *message, size_t message_length,
                    uint8_t *code);

/* HMAC-SHA-1 of message under key; writes 20 bytes to code. Allocates nothing. */
int pkr_hmac_sha1(const uint8_t *key, size_t key_length,
                  const uint8_t *message, size_t message_length,
                  uint8_t *code);

/* 1 when the two buffers hold the same bytes, 0 otherwise; the time taken
 * depends only on length, never on where the buffers differ. */
int pkr_constant_time_equal(const uint8_t *a, const uint8_t *b, size_t length);

/* Encrypts one 16-byte block with AES-128 (ECB, no padding). */
int pkr_aes128_encrypt_block(const uint8_t *key, const uint8_t *input, uint8_t *output);

/* XORs length bytes of input with the AES-128 counter-mode keystream that
 * starts at the 16-byte initial_counter; input and output may be the same. */
int pkr_aes128_ctr_apply(const uint8_t *key, const uint8_t *initial_counter,
                         const uint8_t *input, uint8_t *output, size_t length);

/* AES-128-GCM encryption with a 12-byte IV; writes length bytes of
 * ciphertext and a 16-byte tag. */
int pkr_aes128_gcm_seal(const uint8_t *key, const uint8_t *iv,
                        const uint8_t *aad, size_t aad_length,
                        const uint8_t *plaintext, size_t length,
                        uint8_t *ciphertext, uint8_t *tag);

/*
 * SRTP for RTP packets on OpenSSL, with the cipher context kept between packets: the session
 * keys and salt are derived once (key derivation rate zero, no MKI), and each packet only sets
 * its IV. The caller tracks the rollover counter and any replay detection. RTCP is not here.
 */
/* AEAD_AES_128_GCM (RFC 7714): a 16-byte tag, a 12-byte master salt. */
#define PKR_SRTP_RTP_AEAD_AES_128_GCM 1
/* AES_CM_128_HMAC_SHA1_80 (RFC 3711): a 10-byte tag, a 14-byte master salt. */
#define PKR_SRTP_RTP_AES_CM_128_HMAC_SHA1_80 2

typedef struct pkr_srtp_rtp_context pkr_srtp_rtp_context;

/* For one of the profiles above, from the 16-byte master key and the profile's master salt, to
 * seal (sealing != 0) or to open; NULL for an unknown profile or when OpenSSL fails. */
pkr_srtp_rtp_context *pkr_srtp_rtp_create(int profile, const uint8_t *master_key, const uint8_t *master_salt, int sealing);
void pkr_srtp_rtp_destroy(pkr_srtp_rtp_context *context);
/* For tests: the same context (for SRTCP when rtcp != 0), with AES-GCM through EVP's wrappers
 * rather than its implementation's functions called directly, so the two can be compared. */
pkr_srtp_rtp_context *pkr_srtp_create_on_evp(int profile, const uint8_t *master_key, const uint8_t *master_salt, int sealing, int rtcp);
/* Whether an AES-GCM context calls its implementation's functions directly; 0 when it went
 * through EVP (its functions could not be found, or it was made by pkr_srtp_create_on_evp). */
int pkr_srtp_gcm_is_direct(const pkr_srtp_rtp_context *context);
/* The RTP header's length (CSRCs and extension included) within the first length bytes, or 0
 * when they cannot hold it. The version bits are not checked, as libsrtp does not. */
size_t pkr_srtp_header_length(const uint8_t *packet, size_t length);
/* Verifies and decrypts an SRTP packet in place; returns the RTP packet's length, -1 when it
 * is malformed, or -2 when it fails authentication (the payload is then unspecified).
 * Allocates nothing. */
long pkr_srtp_rtp_open(pkr_srtp_rtp_context *context, uint8_t *packet, size_t length, uint32_t rollover_counter);
/* Encrypts an RTP packet in place and appends the tag; returns the SRTP packet's length, or -1
 * when it is malformed or capacity is short of length plus the tag. Allocates nothing. */
long pkr_srtp_rtp_seal(pkr_srtp_rtp_context *context, uint8_t *packet, size_t length, size_t capacity, uint32_t rollover_counter);
/* Seals an RTP packet whose first head_length bytes (the whole RTP header and possibly some
 * payload) lie at packet and whose remaining tail_length bytes lie at tail, elsewhere: the
 * SRTP packet is written at packet, the tail's ciphertext after the head, then the tag. The
 * same bytes as pkr_srtp_rtp_seal on the joined packet, without joining it first. Returns
 * the SRTP packet's length, or -1 when the header is not within the head, the tail overlaps
 * the capacity bytes at packet, or capacity is short of head_length + tail_length plus the tag. Allocates nothing. */
long pkr_srtp_rtp_seal_split(pkr_srtp_rtp_context *context, uint8_t *packet, size_t head_length, const uint8_t *tail, size_t tail_length,
                             size_t capacity, uint32_t rollover_counter);

/*
 * SRTCP (RFC 3711 section 3.4; for GCM, RFC 7714 section 9) on a context made with
 * pkr_srtcp_create, whose keys are derived with SRTCP's labels. Packets are always encrypted (the
 * E flag is set). The caller keeps each SSRC's SRTCP index and replay window.
 */
pkr_srtp_rtp_context *pkr_srtcp_create(int profile, const uint8_t *master_key, const uint8_t *master_salt, int sealing);
/* Encrypts a compound RTCP packet in place after its first 8 bytes and appends the E flag with
 * the 31-bit index and the tag (for GCM the tag comes first); returns the SRTCP packet's length,
 * or -1 when it is shorter than 8 bytes, capacity is short, or index exceeds 31 bits. */
long pkr_srtcp_seal(pkr_srtp_rtp_context *context, uint8_t *packet, size_t length, size_t capacity, uint32_t index);
/* Verifies and decrypts an SRTCP packet in place (the caller checks its index first, and for
 * AES-CM its E flag, which libsrtp requires; a GCM packet without it was sent unencrypted and is
 * only verified); returns the RTCP packet's length, -1 when it is malformed, or -2 when
 * it fails authentication. */
long pkr_srtcp_open(pkr_srtp_rtp_context *context, uint8_t *packet, size_t length);

/*
 * DTLS 1.2 with DTLS-SRTP keying (RFC 5764), driven without sockets: the
 * caller hands in received datagrams and collects the datagrams to send.
 *
 * OpenSSL's types stay opaque here so Swift never imports OpenSSL's headers;
 * Swift sees these struct pointers as OpaquePointer.
 */
struct evp_pkey_st;
struct x509_st;
struct ssl_ctx_st;
struct ssl_st;

/* Message digests understood by pkr_message_digest. */
#define PKR_DIGEST_SHA256 1
#define PKR_DIGEST_SHA384 2
#define PKR_DIGEST_SHA512 3
/* The longest digest pkr_message_digest writes. */
#define PKR_DIGEST_MAX_LENGTH 64

/* Outcomes of pkr_dtls_handshake, pkr_dtls_read and pkr_dtls_handle_timeout. */
#define PKR_DTLS_FAILED 0     /* fatal error: the connection is unusable */
#define PKR_DTLS_DONE 1       /* the handshake completed, or data was read */
#define PKR_DTLS_WANT_INPUT 2 /* nothing more to do until a datagram or a timeout */
#define PKR_DTLS_CLOSED 3     /* the peer sent close_notify */
#define PKR_DTLS_TIMED_OUT 4  /* fatal: the peer did not answer any retransmission */

/* No alert recorded, for pkr_dtls_fatal_alerts. */
#define PKR_DTLS_NO_ALERT (-1)

/* Receives each datagram the DTLS layer sends, one call per datagram; the
 * bytes are only valid during the call. */
typedef void (*pkr_dtls_datagram_sink)(void *owner, const uint8_t *datagram, size_t length);

/* Digest of data with one of the PKR_DIGEST_ algorithms; writes the digest
 * to output (at least PKR_DIGEST_MAX_LENGTH bytes) and its length. */
int pkr_message_digest(int algorithm, const uint8_t *data, size_t length,
                       uint8_t *output, size_t *output_length);

/* Generates an ECDSA key on P-256. */
int pkr_ec_p256_key_generate(struct evp_pkey_st **key);

void pkr_evp_pkey_free(struct evp_pkey_st *key);

/* Creates an X.509 v3 certificate for key, issued by itself and signed with
 * ECDSA-SHA256: the big-endian serial, subject and issuer CN=common_name,
 * valid from now plus not_before_seconds to now plus not_after_seconds. */
int pkr_x509_self_signed_create(struct evp_pkey_st *key,
                                const uint8_t *serial, size_t serial_length,
                                const char *common_name,
                                long not_before_seconds, long not_after_seconds,
                                struct x509_st **certificate);

void pkr_x509_free(struct x509_st *certificate);

/* DER encoding of certificate. With a NULL buffer only the length is
 * reported; otherwise capacity must hold it. */
int pkr_x509_der(struct x509_st *certificate, uint8_t *buffer, size_t capacity,
                 size_t *length);

/* A context that speaks DTLS 1.2 and nothing else. */
struct ssl_ctx_st *pkr_dtls_context_new(void);

void pkr_dtls_context_free(struct ssl_ctx_st *context);

/* Installs the certificate and its private key, checking that they match. */
int pkr_dtls_context_use_certificate(struct ssl_ctx_st *context,
                                     struct x509_st *certificate,
                                     struct evp_pkey_st *key);

/* Sets the DTLS 1.2 cipher list, in OpenSSL's cipher string syntax. */
int pkr_dtls_context_set_cipher_list(struct ssl_ctx_st *context, const char *ciphers);

/* Sets the ECDHE groups, most preferred first, colon-separated. */
int pkr_dtls_context_set_groups(struct ssl_ctx_st *context, const char *groups);

/* Offers (client) or accepts (server) the colon-separated use_srtp
 * profiles; a server picks the first of its own list the client offered. */
int pkr_dtls_context_set_srtp_profiles(struct ssl_ctx_st *context, const char *profiles);

/* Requires a certificate from the peer in both roles, and accepts any
 * certificate, self-signed or not: the caller authenticates the peer by
 * comparing the certificate's fingerprint after the handshake. */
int pkr_dtls_context_require_any_peer_certificate(struct ssl_ctx_st *context);

/* Turns off what a WebRTC DTLS association never uses: session tickets and
 * the session cache, renegotiation and read-ahead; prefers the server's
 * cipher order. */
int pkr_dtls_context_disable_extras(struct ssl_ctx_st *context);

/* A connection from context, set up as server (is_server != 0) or client. */
struct ssl_st *pkr_dtls_new(struct ssl_ctx_st *context, int is_server);

/* Frees the connection and its datagram link. Sends nothing. */
void pkr_dtls_free(struct ssl_st *connection);

/* Connects the connection to a datagram link that keeps datagram boundaries:
 * every record OpenSSL writes reaches sink as one datagram, and reads return
 * the one datagram given to pkr_dtls_set_incoming. Datagrams carry at most
 * mtu bytes (the UDP payload); mtu must be at least 256. */
int pkr_dtls_attach_link(struct ssl_st *connection, void *owner,
                         pkr_dtls_datagram_sink sink, long mtu);

/* Sets the retransmission timer: initial_us for a new flight, doubling per
 * retransmission up to maximum_us. */
int pkr_dtls_set_retransmission_timeouts(struct ssl_st *connection,
                                         unsigned int initial_us,
                                         unsigned int maximum_us);

/* Makes datagram the next (and only) datagram the connection reads. The
 * bytes are borrowed: call pkr_dtls_clear_incoming before they go away. */
int pkr_dtls_set_incoming(struct ssl_st *connection, const uint8_t *datagram, size_t length);

/* Forgets the borrowed incoming datagram, read or not. */
int pkr_dtls_clear_incoming(struct ssl_st *connection);

/* Advances the handshake; returns one of PKR_DTLS_FAILED, _DONE,
 * _WANT_INPUT, _CLOSED or _TIMED_OUT. OpenSSL retransmits by itself here when
 * the timer has expired. */
int pkr_dtls_handshake(struct ssl_st *connection);

/* Reads application data after the handshake (which also answers a peer's
 * retransmissions and notices alerts); returns one of PKR_DTLS_FAILED, _DONE
 * (with *read bytes), _WANT_INPUT or _CLOSED. */
int pkr_dtls_read(struct ssl_st *connection, uint8_t *buffer, size_t capacity, size_t *read);

/* Remaining time of the retransmission timer in microseconds. Returns 1
 * while a timer runs (0 remaining when it has expired), 0 when none does. */
int pkr_dtls_get_timeout(struct ssl_st *connection, uint64_t *remaining_us);

/* Retransmits the last flight if the timer expired; does nothing otherwise.
 * Returns PKR_DTLS_WANT_INPUT, or PKR_DTLS_TIMED_OUT / PKR_DTLS_FAILED when
 * the handshake must be abandoned. */
int pkr_dtls_handle_timeout(struct ssl_st *connection);

/* Sends close_notify. Returns 0 when none could be sent (for example during
 * the handshake). */
int pkr_dtls_shutdown(struct ssl_st *connection);

/* The descriptions of the last fatal alerts sent and received, or
 * PKR_DTLS_NO_ALERT. */
int pkr_dtls_fatal_alerts(struct ssl_st *connection, int *sent, int *received);

/* OpenSSL's text for the oldest error queued on this thread (empty when
 * none), then empties the queue. Always returns 1. */
int pkr_dtls_take_error_text(char *buffer, size_t capacity);

/* The IANA id of the negotiated DTLS-SRTP profile, or 0 when none was. */
unsigned long pkr_dtls_selected_srtp_profile(struct ssl_st *connection);

/* DER encoding of the certificate the peer presented, as pkr_x509_der. */
int pkr_dtls_peer_certificate_der(struct ssl_st *connection, uint8_t *buffer,
                                  size_t capacity, size_t *length);

/* RFC 5705 keying material exporter without context. */
int pkr_dtls_export_keying_material(struct ssl_st *connection, const char *label,
                                    uint8_t *output, size_t length);
