#include "COpenSSLShims.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/srtp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

/* ---- Digests, keys and certificates ---- */

int pkr_message_digest(int algorithm, const uint8_t *data, size_t length,
                       uint8_t *output, size_t *output_length)
{
    const EVP_MD *digest;
    switch (algorithm) {
    case PKR_DIGEST_SHA256: digest = EVP_sha256(); break;
    case PKR_DIGEST_SHA384: digest = EVP_sha384(); break;
    case PKR_DIGEST_SHA512: digest = EVP_sha512(); break;
    default: return 0;
    }
    if (output == NULL || output_length == NULL || (data == NULL && length > 0)) {
        return 0;
    }
    static const uint8_t nothing[1] = {0};
    unsigned int written = 0;
    if (EVP_Digest(data != NULL ? data : nothing, length, output, &written, digest, NULL) != 1) {
        return 0;
    }
    *output_length = written;
    return 1;
}

int pkr_ec_p256_key_generate(struct evp_pkey_st **key)
{
    if (key == NULL) {
        return 0;
    }
    *key = EVP_EC_gen("P-256");
    return *key != NULL ? 1 : 0;
}

void pkr_evp_pkey_free(struct evp_pkey_st *key)
{
    EVP_PKEY_free(key);
}

int pkr_x509_self_signed_create(struct evp_pkey_st *key,
                                const uint8_t *serial, size_t serial_length,
                                const char *common_name,
                                long not_before_seconds, long not_after_seconds,
                                struct x509_st **certificate)
{
    if (key == NULL || serial == NULL || serial_length == 0 || serial_length > INT_MAX
        || common_name == NULL || certificate == NULL) {
        return 0;
    }
    *certificate = NULL;
    X509 *built = X509_new();
    BIGNUM *serial_number = BN_bin2bn(serial, (int)serial_length, NULL);
    X509_NAME *name = X509_NAME_new();
    int ok = built != NULL && serial_number != NULL && name != NULL
        && X509_set_version(built, X509_VERSION_3) == 1
        && BN_to_ASN1_INTEGER(serial_number, X509_get_serialNumber(built)) != NULL
        && X509_gmtime_adj(X509_getm_notBefore(built), not_before_seconds) != NULL
        && X509_gmtime_adj(X509_getm_notAfter(built), not_after_seconds) != NULL
        && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                      (const unsigned char *)common_name, -1, -1, 0) == 1
        && X509_set_subject_name(built, name) == 1
        && X509_set_issuer_name(built, name) == 1
        && X509_set_pubkey(built, key) == 1
        && X509_sign(built, key, EVP_sha256()) > 0;
    X509_NAME_free(name);
    BN_free(serial_number);
    if (!ok) {
        X509_free(built);
        return 0;
    }
    *certificate = built;
    return 1;
}

void pkr_x509_free(struct x509_st *certificate)
{
    X509_free(certificate);
}

int pkr_x509_der(struct x509_st *certificate, uint8_t *buffer, size_t capacity,
                 size_t *length)
{
    if (certificate == NULL || length == NULL) {
        return 0;
    }
    int needed = i2d_X509(certificate, NULL);
    if (needed <= 0) {
        return 0;
    }
    *length = (size_t)needed;
    if (buffer == NULL) {
        return 1;
    }
    if (capacity < (size_t)needed) {
        return 0;
    }
    unsigned char *cursor = buffer;
    return i2d_X509(certificate, &cursor) == needed ? 1 : 0;
}

/* ---- The context ---- */

struct ssl_ctx_st *pkr_dtls_context_new(void)
{
    SSL_CTX *context = SSL_CTX_new(DTLS_method());
    if (context == NULL) {
        return NULL;
    }
    if (SSL_CTX_set_min_proto_version(context, DTLS1_2_VERSION) != 1
        || SSL_CTX_set_max_proto_version(context, DTLS1_2_VERSION) != 1) {
        SSL_CTX_free(context);
        return NULL;
    }
    return context;
}

void pkr_dtls_context_free(struct ssl_ctx_st *context)
{
    SSL_CTX_free(context);
}

int pkr_dtls_context_use_certificate(struct ssl_ctx_st *context,
                                     struct x509_st *certificate,
                                     struct evp_pkey_st *key)
{
    return SSL_CTX_use_certificate(context, certificate) == 1
        && SSL_CTX_use_PrivateKey(context, key) == 1
        && SSL_CTX_check_private_key(context) == 1;
}

int pkr_dtls_context_set_cipher_list(struct ssl_ctx_st *context, const char *ciphers)
{
    return SSL_CTX_set_cipher_list(context, ciphers) == 1;
}

int pkr_dtls_context_set_groups(struct ssl_ctx_st *context, const char *groups)
{
    return SSL_CTX_set1_groups_list(context, groups) == 1;
}

int pkr_dtls_context_set_srtp_profiles(struct ssl_ctx_st *context, const char *profiles)
{
    /* Unlike almost everything else in OpenSSL, this one returns 0 on success. */
    return SSL_CTX_set_tlsext_use_srtp(context, profiles) == 0;
}

/* Lets every certificate through OpenSSL's chain checks; see the header. */
static int pkr_dtls_accept_any_certificate(int preverified, X509_STORE_CTX *store)
{
    (void)preverified;
    (void)store;
    return 1;
}

int pkr_dtls_context_require_any_peer_certificate(struct ssl_ctx_st *context)
{
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                       pkr_dtls_accept_any_certificate);
    return 1;
}

int pkr_dtls_context_disable_extras(struct ssl_ctx_st *context)
{
    SSL_CTX_set_options(context, SSL_OP_NO_TICKET | SSL_OP_NO_RENEGOTIATION
                                     | SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_QUERY_MTU);
    SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_read_ahead(context, 0);
    return 1;
}

/* ---- The datagram link: a BIO that keeps datagram boundaries ---- */

/* Per-connection state behind the BIO, freed with it. */
typedef struct {
    void *owner;
    pkr_dtls_datagram_sink sink;
    long mtu;
    const uint8_t *incoming;
    size_t incoming_length;
    int has_incoming;
    unsigned int initial_timeout_us;
    unsigned int maximum_timeout_us;
    int last_sent_fatal_alert;
    int last_received_fatal_alert;
} pkr_dtls_link;

static int pkr_dtls_link_write(BIO *bio, const char *data, int length)
{
    pkr_dtls_link *link = BIO_get_data(bio);
    BIO_clear_retry_flags(bio);
    if (link == NULL || data == NULL || length < 0) {
        return -1;
    }
    if (link->sink != NULL) {
        link->sink(link->owner, (const uint8_t *)data, (size_t)length);
    }
    return length;
}

static int pkr_dtls_link_read(BIO *bio, char *buffer, int capacity)
{
    pkr_dtls_link *link = BIO_get_data(bio);
    BIO_clear_retry_flags(bio);
    if (link == NULL || buffer == NULL || capacity < 0) {
        return -1;
    }
    if (!link->has_incoming) {
        BIO_set_retry_read(bio);
        return -1;
    }
    /* Like recvfrom on a short buffer: the rest of the datagram is lost. */
    size_t count = link->incoming_length < (size_t)capacity ? link->incoming_length : (size_t)capacity;
    if (count > 0) {
        memcpy(buffer, link->incoming, count);
    }
    link->has_incoming = 0;
    link->incoming = NULL;
    link->incoming_length = 0;
    return (int)count;
}

static long pkr_dtls_link_ctrl(BIO *bio, int command, long number, void *pointer)
{
    (void)pointer;
    pkr_dtls_link *link = BIO_get_data(bio);
    switch (command) {
    case BIO_CTRL_FLUSH:
        return 1;
    case BIO_CTRL_PENDING:
        return link != NULL && link->has_incoming ? (long)link->incoming_length : 0;
    case BIO_CTRL_WPENDING:
        return 0;
    case BIO_CTRL_DGRAM_QUERY_MTU:
    case BIO_CTRL_DGRAM_GET_FALLBACK_MTU:
        return link != NULL ? link->mtu : 0;
    case BIO_CTRL_DGRAM_SET_MTU:
        if (link != NULL && number > 0) {
            link->mtu = number;
        }
        return number;
    case BIO_CTRL_DGRAM_GET_MTU_OVERHEAD:
        /* The configured MTU already counts UDP payload bytes only. */
        return 0;
    case BIO_CTRL_DGRAM_MTU_EXCEEDED:
        return 0;
    case BIO_CTRL_DGRAM_SET_NEXT_TIMEOUT:
        /* The caller runs the clock (pkr_dtls_get_timeout); nothing to arm here. */
        return 1;
    default:
        return 0;
    }
}

static int pkr_dtls_link_create(BIO *bio)
{
    BIO_set_data(bio, NULL);
    BIO_set_init(bio, 1);
    return 1;
}

static int pkr_dtls_link_destroy(BIO *bio)
{
    if (bio == NULL) {
        return 0;
    }
    free(BIO_get_data(bio));
    BIO_set_data(bio, NULL);
    return 1;
}

static pthread_once_t pkr_dtls_link_method_once = PTHREAD_ONCE_INIT;
static BIO_METHOD *pkr_dtls_link_method = NULL;

static void pkr_dtls_link_method_build(void)
{
    BIO_METHOD *method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK,
                                      "pkrelay datagram link");
    if (method == NULL) {
        return;
    }
    if (BIO_meth_set_write(method, pkr_dtls_link_write) != 1
        || BIO_meth_set_read(method, pkr_dtls_link_read) != 1
        || BIO_meth_set_ctrl(method, pkr_dtls_link_ctrl) != 1
        || BIO_meth_set_create(method, pkr_dtls_link_create) != 1
        || BIO_meth_set_destroy(method, pkr_dtls_link_destroy) != 1) {
        BIO_meth_free(method);
        return;
    }
    pkr_dtls_link_method = method;
}

static pkr_dtls_link *pkr_dtls_link_of(const SSL *connection)
{
    BIO *bio = connection != NULL ? SSL_get_rbio(connection) : NULL;
    return bio != NULL ? BIO_get_data(bio) : NULL;
}

/* Records fatal alerts in both directions, so a failure can say which alert ended it. */
static void pkr_dtls_note_alert(const SSL *connection, int where, int value)
{
    if ((where & SSL_CB_ALERT) == 0 || (value >> 8) != SSL3_AL_FATAL) {
        return;
    }
    pkr_dtls_link *link = pkr_dtls_link_of(connection);
    if (link == NULL) {
        return;
    }
    if (where & SSL_CB_READ) {
        link->last_received_fatal_alert = value & 0xFF;
    } else {
        link->last_sent_fatal_alert = value & 0xFF;
    }
}

/* DTLS_set_timer_cb: timer_us is 0 for a new flight, else the interval that just expired. */
static unsigned int pkr_dtls_next_timeout(SSL *connection, unsigned int timer_us)
{
    pkr_dtls_link *link = pkr_dtls_link_of(connection);
    if (link == NULL) {
        return 1000000;
    }
    if (timer_us == 0) {
        return link->initial_timeout_us;
    }
    if (timer_us >= link->maximum_timeout_us / 2) {
        return link->maximum_timeout_us;
    }
    return timer_us * 2;
}

/* ---- Connections ---- */

struct ssl_st *pkr_dtls_new(struct ssl_ctx_st *context, int is_server)
{
    if (context == NULL) {
        return NULL;
    }
    SSL *connection = SSL_new(context);
    if (connection == NULL) {
        return NULL;
    }
    if (is_server) {
        SSL_set_accept_state(connection);
    } else {
        SSL_set_connect_state(connection);
    }
    return connection;
}

void pkr_dtls_free(struct ssl_st *connection)
{
    SSL_free(connection);
}

int pkr_dtls_attach_link(struct ssl_st *connection, void *owner,
                         pkr_dtls_datagram_sink sink, long mtu)
{
    if (connection == NULL || mtu < 256) {
        return 0;
    }
    if (pthread_once(&pkr_dtls_link_method_once, pkr_dtls_link_method_build) != 0
        || pkr_dtls_link_method == NULL) {
        return 0;
    }
    pkr_dtls_link *link = calloc(1, sizeof(*link));
    if (link == NULL) {
        return 0;
    }
    link->owner = owner;
    link->sink = sink;
    link->mtu = mtu;
    link->initial_timeout_us = 1000000;
    link->maximum_timeout_us = 60000000;
    link->last_sent_fatal_alert = PKR_DTLS_NO_ALERT;
    link->last_received_fatal_alert = PKR_DTLS_NO_ALERT;
    BIO *bio = BIO_new(pkr_dtls_link_method);
    if (bio == NULL) {
        free(link);
        return 0;
    }
    BIO_set_data(bio, link);
    /* One BIO serves both directions; SSL_set_bio takes the one reference. */
    SSL_set_bio(connection, bio, bio);
    SSL_set_info_callback(connection, pkr_dtls_note_alert);
    SSL_set_options(connection, SSL_OP_NO_QUERY_MTU);
    return DTLS_set_link_mtu(connection, mtu) == 1;
}

int pkr_dtls_set_retransmission_timeouts(struct ssl_st *connection,
                                         unsigned int initial_us,
                                         unsigned int maximum_us)
{
    pkr_dtls_link *link = pkr_dtls_link_of(connection);
    if (link == NULL || initial_us == 0 || maximum_us < initial_us) {
        return 0;
    }
    link->initial_timeout_us = initial_us;
    link->maximum_timeout_us = maximum_us;
    DTLS_set_timer_cb(connection, pkr_dtls_next_timeout);
    return 1;
}

int pkr_dtls_set_incoming(struct ssl_st *connection, const uint8_t *datagram, size_t length)
{
    pkr_dtls_link *link = pkr_dtls_link_of(connection);
    if (link == NULL || (datagram == NULL && length > 0) || length > INT_MAX) {
        return 0;
    }
    link->incoming = datagram;
    link->incoming_length = length;
    link->has_incoming = 1;
    return 1;
}

int pkr_dtls_clear_incoming(struct ssl_st *connection)
{
    pkr_dtls_link *link = pkr_dtls_link_of(connection);
    if (link == NULL) {
        return 0;
    }
    link->incoming = NULL;
    link->incoming_length = 0;
    link->has_incoming = 0;
    return 1;
}

/* A fatal error is a timeout when OpenSSL gave up retransmitting. */
static int pkr_dtls_failure_outcome(void)
{
    return ERR_GET_REASON(ERR_peek_error()) == SSL_R_READ_TIMEOUT_EXPIRED
        ? PKR_DTLS_TIMED_OUT : PKR_DTLS_FAILED;
}

/* Maps SSL_get_error onto the PKR_DTLS_ outcomes. */
static int pkr_dtls_outcome(SSL *connection, int result)
{
    switch (SSL_get_error(connection, result)) {
    case SSL_ERROR_NONE:
        return PKR_DTLS_DONE;
    case SSL_ERROR_WANT_READ:
    case SSL_ERROR_WANT_WRITE:
        return PKR_DTLS_WANT_INPUT;
    case SSL_ERROR_ZERO_RETURN:
        return PKR_DTLS_CLOSED;
    default:
        return pkr_dtls_failure_outcome();
    }
}

int pkr_dtls_handshake(struct ssl_st *connection)
{
    /* SSL_get_error reads this thread's error queue: start from an empty one. */
    ERR_clear_error();
    return pkr_dtls_outcome(connection, SSL_do_handshake(connection));
}

int pkr_dtls_read(struct ssl_st *connection, uint8_t *buffer, size_t capacity, size_t *read)
{
    if (buffer == NULL || read == NULL || capacity == 0) {
        return PKR_DTLS_FAILED;
    }
    *read = 0;
    ERR_clear_error();
    size_t count = 0;
    int outcome = pkr_dtls_outcome(connection, SSL_read_ex(connection, buffer, capacity, &count));
    if (outcome == PKR_DTLS_DONE) {
        *read = count;
    }
    return outcome;
}

int pkr_dtls_get_timeout(struct ssl_st *connection, uint64_t *remaining_us)
{
    if (remaining_us == NULL) {
        return 0;
    }
    struct timeval remaining = {0, 0};
    if (DTLSv1_get_timeout(connection, &remaining) != 1) {
        return 0;
    }
    *remaining_us = (uint64_t)remaining.tv_sec * 1000000u + (uint64_t)remaining.tv_usec;
    return 1;
}

int pkr_dtls_handle_timeout(struct ssl_st *connection)
{
    ERR_clear_error();
    return DTLSv1_handle_timeout(connection) >= 0 ? PKR_DTLS_WANT_INPUT : pkr_dtls_failure_outcome();
}

int pkr_dtls_shutdown(struct ssl_st *connection)
{
    ERR_clear_error();
    int result = SSL_shutdown(connection);
    ERR_clear_error();
    return result >= 0 ? 1 : 0;
}

int pkr_dtls_fatal_alerts(struct ssl_st *connection, int *sent, int *received)
{
    pkr_dtls_link *link = pkr_dtls_link_of(connection);
    if (link == NULL || sent == NULL || received == NULL) {
        return 0;
    }
    *sent = link->last_sent_fatal_alert;
    *received = link->last_received_fatal_alert;
    return 1;
}

int pkr_dtls_take_error_text(char *buffer, size_t capacity)
{
    if (buffer != NULL && capacity > 0) {
        buffer[0] = '\0';
        unsigned long error = ERR_peek_error();
        if (error != 0) {
            ERR_error_string_n(error, buffer, capacity);
        }
    }
    ERR_clear_error();
    return 1;
}

unsigned long pkr_dtls_selected_srtp_profile(struct ssl_st *connection)
{
    SRTP_PROTECTION_PROFILE *profile = SSL_get_selected_srtp_profile(connection);
    return profile != NULL ? profile->id : 0;
}

int pkr_dtls_peer_certificate_der(struct ssl_st *connection, uint8_t *buffer,
                                  size_t capacity, size_t *length)
{
    X509 *certificate = SSL_get1_peer_certificate(connection);
    if (certificate == NULL) {
        return 0;
    }
    int ok = pkr_x509_der(certificate, buffer, capacity, length);
    X509_free(certificate);
    return ok;
}

int pkr_dtls_export_keying_material(struct ssl_st *connection, const char *label,
                                    uint8_t *output, size_t length)
{
    if (label == NULL || output == NULL) {
        return 0;
    }
    return SSL_export_keying_material(connection, output, length, label, strlen(label),
                                      NULL, 0, 0) == 1;
}
