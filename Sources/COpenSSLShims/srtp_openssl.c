// SRTP and SRTCP on OpenSSL, with the cipher context kept between packets.
//
// SHA1_Init/Update/Final are deprecated in OpenSSL 3 in favour of EVP, but their state lives in
// the caller's memory: AES-CM's HMAC copies two precomputed states per packet, where an EVP MAC
// context would be set up (and allocate) for every packet.
#define OPENSSL_SUPPRESS_DEPRECATED
#include "COpenSSLShims.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* RFC 7714: a 16-byte tag after the encrypted payload, a 12-byte IV and salt. */
#define PKR_GCM_TAG_LENGTH 16
#define PKR_GCM_SALT_LENGTH 12
/* RFC 3711: an 80-bit HMAC-SHA1 tag, a 112-bit salt and a 160-bit authentication key. */
#define PKR_CM_TAG_LENGTH 10
#define PKR_CM_SALT_LENGTH 14
#define PKR_CM_AUTH_KEY_LENGTH 20
/* The label of each session key (RFC 3711 section 4.3.2); SRTCP's are three higher. */
#define PKR_LABEL_ENCRYPTION 0x00
#define PKR_LABEL_AUTHENTICATION 0x01
#define PKR_LABEL_SALT 0x02
#define PKR_LABEL_RTCP_OFFSET 0x03
/* SRTCP: the fixed header and sender SSRC stay in the clear; the E flag and 31-bit index follow. */
#define PKR_SRTCP_HEADER_LENGTH 8
#define PKR_SRTCP_TRAILER_LENGTH 4
#define PKR_SRTCP_E_FLAG 0x80000000u
#define PKR_SRTCP_INDEX_MASK 0x7FFFFFFFu

struct pkr_srtp_rtp_context {
    int profile;
    int sealing;
    /* Keys derived for SRTCP (labels 3-5) rather than SRTP. */
    int rtcp;
    size_t tag_length;
    /* AES-GCM through its implementation's own functions (pkr_gcm_functions), when they were
     * found; EVP's context otherwise, and always for AES-CM. */
    void *gcm;
    EVP_CIPHER_CTX *cipher;
    /* The session salt: 12 bytes for GCM, 14 for AES-CM. */
    uint8_t salt[PKR_CM_SALT_LENGTH];
    /* AES-CM's HMAC-SHA1 with the key's inner and outer pads already absorbed: each packet
     * starts from copies of these instead of hashing two blocks of pad. */
    SHA_CTX inner;
    SHA_CTX outer;
};

/* AES-128-GCM through the functions of the provider that implements it (provider-cipher(7)),
 * called directly rather than through EVP's per-call wrappers. OpenSSL 3.0's EVP asks the
 * implementation for the IV length every time an IV is set (a parameter lookup: eight string
 * comparisons), builds a parameter array for each tag request, and checks and converts around
 * every update and final step: together about a thousand instructions a packet, a sixth of a
 * 1200-byte seal. The tag itself still costs a parameter call, the only way a provider hands it
 * out. The functions are the ones EVP itself calls for the same cipher, from the provider
 * EVP_CIPHER_fetch chose, with the arguments EVP passes; the fetched cipher is kept for the life
 * of the process so that its provider stays loaded. Where they cannot be found, contexts fall
 * back to EVP. */
typedef struct {
    OSSL_FUNC_cipher_newctx_fn *newctx;
    OSSL_FUNC_cipher_freectx_fn *freectx;
    OSSL_FUNC_cipher_encrypt_init_fn *encrypt_init;
    OSSL_FUNC_cipher_decrypt_init_fn *decrypt_init;
    OSSL_FUNC_cipher_update_fn *update;
    OSSL_FUNC_cipher_final_fn *final;
    OSSL_FUNC_cipher_get_ctx_params_fn *get_ctx_params;
    OSSL_FUNC_cipher_set_ctx_params_fn *set_ctx_params;
    void *provider_context;
} pkr_gcm_functions;

static pkr_gcm_functions pkr_gcm;
static int pkr_gcm_found;
static pthread_once_t pkr_gcm_once = PTHREAD_ONCE_INIT;

/* Whether one of an algorithm's colon-separated names is name. */
static int pkr_names_include(const char *names, const char *name)
{
    size_t length = strlen(name);
    for (const char *start = names; start != NULL && *start != '\0';) {
        const char *end = strchr(start, ':');
        size_t candidate = end != NULL ? (size_t)(end - start) : strlen(start);
        if (candidate == length && strncasecmp(start, name, length) == 0) {
            return 1;
        }
        start = end != NULL ? end + 1 : NULL;
    }
    return 0;
}

static void pkr_gcm_find(void)
{
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, "AES-128-GCM", NULL);
    const OSSL_PROVIDER *provider = cipher != NULL ? EVP_CIPHER_get0_provider(cipher) : NULL;
    if (provider == NULL) {
        EVP_CIPHER_free(cipher);
        return;
    }
    int no_store = 0;
    const OSSL_ALGORITHM *algorithms = OSSL_PROVIDER_query_operation(provider, OSSL_OP_CIPHER, &no_store);
    pkr_gcm_functions found;
    memset(&found, 0, sizeof found);
    for (const OSSL_ALGORITHM *algorithm = algorithms; algorithm != NULL && algorithm->algorithm_names != NULL; algorithm++) {
        if (!pkr_names_include(algorithm->algorithm_names, "AES-128-GCM")) {
            continue;
        }
        for (const OSSL_DISPATCH *function = algorithm->implementation; function->function_id != 0; function++) {
            switch (function->function_id) {
            case OSSL_FUNC_CIPHER_NEWCTX: found.newctx = OSSL_FUNC_cipher_newctx(function); break;
            case OSSL_FUNC_CIPHER_FREECTX: found.freectx = OSSL_FUNC_cipher_freectx(function); break;
            case OSSL_FUNC_CIPHER_ENCRYPT_INIT: found.encrypt_init = OSSL_FUNC_cipher_encrypt_init(function); break;
            case OSSL_FUNC_CIPHER_DECRYPT_INIT: found.decrypt_init = OSSL_FUNC_cipher_decrypt_init(function); break;
            case OSSL_FUNC_CIPHER_UPDATE: found.update = OSSL_FUNC_cipher_update(function); break;
            case OSSL_FUNC_CIPHER_FINAL: found.final = OSSL_FUNC_cipher_final(function); break;
            case OSSL_FUNC_CIPHER_GET_CTX_PARAMS: found.get_ctx_params = OSSL_FUNC_cipher_get_ctx_params(function); break;
            case OSSL_FUNC_CIPHER_SET_CTX_PARAMS: found.set_ctx_params = OSSL_FUNC_cipher_set_ctx_params(function); break;
            default: break;
            }
        }
        break;
    }
    if (algorithms != NULL) {
        OSSL_PROVIDER_unquery_operation(provider, OSSL_OP_CIPHER, algorithms);
    }
    found.provider_context = OSSL_PROVIDER_get0_provider_ctx(provider);
    if (found.newctx == NULL || found.freectx == NULL || found.encrypt_init == NULL || found.decrypt_init == NULL || found.update == NULL
        || found.final == NULL || found.get_ctx_params == NULL || found.set_ctx_params == NULL) {
        EVP_CIPHER_free(cipher);
        return;
    }
    /* Kept, never freed: it holds the provider whose functions are called. */
    pkr_gcm = found;
    pkr_gcm_found = 1;
}

/* Whether AES-GCM contexts call the implementation directly (see pkr_gcm_functions). */
static int pkr_gcm_direct(void)
{
    pthread_once(&pkr_gcm_once, pkr_gcm_find);
    return pkr_gcm_found;
}

/* A new AES-128-GCM context under key with 12-byte IVs, on the implementation's functions
 * (context->gcm) or, failing those, on EVP (context->cipher). */
static int pkr_gcm_create(pkr_srtp_rtp_context *context, const uint8_t *key, int direct)
{
    if (direct && pkr_gcm_direct()) {
        context->gcm = pkr_gcm.newctx(pkr_gcm.provider_context);
        if (context->gcm == NULL) {
            return 0;
        }
        /* 12 bytes is GCM's default IV length, as EVP_CTRL_GCM_SET_IVLEN sets it below. */
        return context->sealing ? pkr_gcm.encrypt_init(context->gcm, key, 16, NULL, 0, NULL) == 1
                                : pkr_gcm.decrypt_init(context->gcm, key, 16, NULL, 0, NULL) == 1;
    }
    context->cipher = EVP_CIPHER_CTX_new();
    return context->cipher != NULL && EVP_CipherInit_ex(context->cipher, EVP_aes_128_gcm(), NULL, NULL, NULL, context->sealing) == 1
        && EVP_CIPHER_CTX_ctrl(context->cipher, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) == 1
        && EVP_CipherInit_ex(context->cipher, NULL, NULL, key, NULL, context->sealing) == 1;
}

/* Starts a packet under iv (12 bytes), in the context's direction. */
static inline int pkr_gcm_start(pkr_srtp_rtp_context *context, const uint8_t *iv)
{
    if (context->gcm != NULL) {
        return context->sealing ? pkr_gcm.encrypt_init(context->gcm, NULL, 0, iv, 12, NULL) == 1
                                : pkr_gcm.decrypt_init(context->gcm, NULL, 0, iv, 12, NULL) == 1;
    }
    return EVP_CipherInit_ex2(context->cipher, NULL, NULL, iv, context->sealing, NULL) == 1;
}

/* Authenticates length bytes as associated data. */
static inline int pkr_gcm_associate(pkr_srtp_rtp_context *context, const uint8_t *data, size_t length)
{
    if (length == 0) {
        return 1;
    }
    int written = 0;
    if (context->gcm != NULL) {
        size_t done = 0;
        return pkr_gcm.update(context->gcm, NULL, &done, length, data, length) == 1;
    }
    return EVP_CipherUpdate(context->cipher, NULL, &written, data, (int)length) == 1;
}

/* Encrypts or decrypts length bytes from in to out (which may be in). */
static inline int pkr_gcm_crypt(pkr_srtp_rtp_context *context, uint8_t *out, const uint8_t *in, size_t length)
{
    if (length == 0) {
        return 1;
    }
    if (context->gcm != NULL) {
        size_t done = 0;
        return pkr_gcm.update(context->gcm, out, &done, length, in, length) == 1 && done == length;
    }
    int written = 0;
    return EVP_CipherUpdate(context->cipher, out, &written, in, (int)length) == 1 && (size_t)written == length;
}

/* Finishes a sealed packet: its 16-byte tag into tag. */
static inline int pkr_gcm_finish_sealing(pkr_srtp_rtp_context *context, uint8_t *tag)
{
    if (context->gcm != NULL) {
        size_t done = 0;
        OSSL_PARAM request[2] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, PKR_GCM_TAG_LENGTH), OSSL_PARAM_END};
        return pkr_gcm.final(context->gcm, tag, &done, 0) == 1 && pkr_gcm.get_ctx_params(context->gcm, request) == 1;
    }
    int written = 0;
    return EVP_CipherFinal_ex(context->cipher, tag, &written) == 1
        && EVP_CIPHER_CTX_ctrl(context->cipher, EVP_CTRL_GCM_GET_TAG, PKR_GCM_TAG_LENGTH, tag) == 1;
}

/* Finishes an opened packet: whether its 16-byte tag verifies. The tag is read before the
 * final step, as EVP requires. */
static inline int pkr_gcm_finish_opening(pkr_srtp_rtp_context *context, const uint8_t *tag, uint8_t *end)
{
    if (context->gcm != NULL) {
        size_t done = 0;
        OSSL_PARAM expected[2] = {
            OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, (void *)tag, PKR_GCM_TAG_LENGTH), OSSL_PARAM_END};
        return pkr_gcm.set_ctx_params(context->gcm, expected) == 1 && pkr_gcm.final(context->gcm, end, &done, 0) == 1;
    }
    int written = 0;
    return EVP_CIPHER_CTX_ctrl(context->cipher, EVP_CTRL_GCM_SET_TAG, PKR_GCM_TAG_LENGTH, (void *)tag) == 1
        && EVP_CipherFinal_ex(context->cipher, end, &written) == 1;
}

/* The AES-CM PRF of RFC 3711 section 4.3.3 for packet index 0 (key derivation rate zero): block
 * block_index of the keystream from x * 2^16, with x the master salt (a 96-bit GCM salt is
 * extended with zero bits to 112, as RFC 7714's errata says) XORed with the label in byte 7. */
static int pkr_srtp_derive(const uint8_t *master_key, const uint8_t *master_salt, size_t salt_length, uint8_t label, uint8_t block_index,
                           uint8_t *block)
{
    uint8_t counter[16] = {0};
    memcpy(counter, master_salt, salt_length);
    counter[7] ^= label;
    counter[15] = block_index;
    return pkr_aes128_encrypt_block(master_key, counter, block);
}

/* Absorbs the HMAC key's inner and outer pads (RFC 2104) into the context's two states. */
static int pkr_srtp_cm_absorb_pads(pkr_srtp_rtp_context *context, const uint8_t *auth_key)
{
    uint8_t pad[SHA_CBLOCK];
    memset(pad, 0x36, sizeof pad);
    for (size_t index = 0; index < PKR_CM_AUTH_KEY_LENGTH; index++) {
        pad[index] ^= auth_key[index];
    }
    int ok = SHA1_Init(&context->inner) && SHA1_Update(&context->inner, pad, sizeof pad);
    memset(pad, 0x5c, sizeof pad);
    for (size_t index = 0; index < PKR_CM_AUTH_KEY_LENGTH; index++) {
        pad[index] ^= auth_key[index];
    }
    ok = ok && SHA1_Init(&context->outer) && SHA1_Update(&context->outer, pad, sizeof pad);
    OPENSSL_cleanse(pad, sizeof pad);
    return ok;
}

static pkr_srtp_rtp_context *pkr_srtp_create(int profile, const uint8_t *master_key, const uint8_t *master_salt, int sealing, uint8_t label_offset,
                                             int direct)
{
    if (master_key == NULL || master_salt == NULL
        || (profile != PKR_SRTP_RTP_AEAD_AES_128_GCM && profile != PKR_SRTP_RTP_AES_CM_128_HMAC_SHA1_80)) {
        return NULL;
    }
    int gcm = profile == PKR_SRTP_RTP_AEAD_AES_128_GCM;
    size_t salt_length = gcm ? PKR_GCM_SALT_LENGTH : PKR_CM_SALT_LENGTH;
    uint8_t session_key[16];
    uint8_t session_salt[16];
    uint8_t auth_key[32];
    int ok = pkr_srtp_derive(master_key, master_salt, salt_length, PKR_LABEL_ENCRYPTION + label_offset, 0, session_key) == 1
        && pkr_srtp_derive(master_key, master_salt, salt_length, PKR_LABEL_SALT + label_offset, 0, session_salt) == 1
        && (gcm
            || (pkr_srtp_derive(master_key, master_salt, salt_length, PKR_LABEL_AUTHENTICATION + label_offset, 0, auth_key) == 1
                && pkr_srtp_derive(master_key, master_salt, salt_length, PKR_LABEL_AUTHENTICATION + label_offset, 1, auth_key + 16) == 1));
    pkr_srtp_rtp_context *context = ok ? calloc(1, sizeof(*context)) : NULL;
    if (context != NULL) {
        context->profile = profile;
        context->sealing = sealing != 0;
        context->rtcp = label_offset != 0;
        context->tag_length = gcm ? PKR_GCM_TAG_LENGTH : PKR_CM_TAG_LENGTH;
        memcpy(context->salt, session_salt, salt_length);
        if (gcm) {
            ok = pkr_gcm_create(context, session_key, direct);
        } else {
            /* Counter mode decrypts by encrypting: one direction serves both. */
            context->cipher = EVP_CIPHER_CTX_new();
            ok = context->cipher != NULL
                && EVP_EncryptInit_ex(context->cipher, EVP_aes_128_ctr(), NULL, session_key, NULL) == 1
                && pkr_srtp_cm_absorb_pads(context, auth_key);
        }
    }
    OPENSSL_cleanse(session_key, sizeof(session_key));
    OPENSSL_cleanse(session_salt, sizeof(session_salt));
    OPENSSL_cleanse(auth_key, sizeof(auth_key));
    if (context != NULL && !ok) {
        pkr_srtp_rtp_destroy(context);
        return NULL;
    }
    return context;
}

pkr_srtp_rtp_context *pkr_srtp_rtp_create(int profile, const uint8_t *master_key, const uint8_t *master_salt, int sealing)
{
    return pkr_srtp_create(profile, master_key, master_salt, sealing, 0, 1);
}

pkr_srtp_rtp_context *pkr_srtcp_create(int profile, const uint8_t *master_key, const uint8_t *master_salt, int sealing)
{
    return pkr_srtp_create(profile, master_key, master_salt, sealing, PKR_LABEL_RTCP_OFFSET, 1);
}

pkr_srtp_rtp_context *pkr_srtp_create_on_evp(int profile, const uint8_t *master_key, const uint8_t *master_salt, int sealing, int rtcp)
{
    return pkr_srtp_create(profile, master_key, master_salt, sealing, rtcp ? PKR_LABEL_RTCP_OFFSET : 0, 0);
}

int pkr_srtp_gcm_is_direct(const pkr_srtp_rtp_context *context)
{
    return context != NULL && context->gcm != NULL;
}

void pkr_srtp_rtp_destroy(pkr_srtp_rtp_context *context)
{
    if (context == NULL) {
        return;
    }
    if (context->gcm != NULL) {
        pkr_gcm.freectx(context->gcm);
    }
    EVP_CIPHER_CTX_free(context->cipher);
    OPENSSL_cleanse(context, sizeof(*context));
    free(context);
}

size_t pkr_srtp_header_length(const uint8_t *packet, size_t length)
{
    if (packet == NULL) {
        return 0;
    }
    /* As libsrtp does, the version is not checked: callers classify packets first. */
    if (length < 12) {
        return 0;
    }
    size_t header_length = 12 + 4 * (size_t)(packet[0] & 0x0F);
    if (packet[0] & 0x10) {
        if (header_length + 4 > length) {
            return 0;
        }
        size_t words = ((size_t)packet[header_length + 2] << 8) | packet[header_length + 3];
        header_length += 4 + 4 * words;
    }
    return header_length <= length ? header_length : 0;
}

/* GCM: IV = (0x0000 || SSRC || ROC || SEQ) XOR session salt (RFC 7714 section 8.1). */
static void pkr_srtp_gcm_iv(const pkr_srtp_rtp_context *context, const uint8_t *packet, uint32_t rollover_counter, uint8_t *iv)
{
    memset(iv, 0, 12);
    memcpy(iv + 2, packet + 8, 4);
    iv[6] = (uint8_t)(rollover_counter >> 24);
    iv[7] = (uint8_t)(rollover_counter >> 16);
    iv[8] = (uint8_t)(rollover_counter >> 8);
    iv[9] = (uint8_t)rollover_counter;
    iv[10] = packet[2];
    iv[11] = packet[3];
    for (int index = 0; index < 12; index++) {
        iv[index] ^= context->salt[index];
    }
}

/* AES-CM: IV = (salt * 2^16) XOR (SSRC * 2^64) XOR (index * 2^16), where the 48-bit packet
 * index is ROC || SEQ for RTP (RFC 3711 section 4.1.1) and the SRTCP index for RTCP. */
static void pkr_srtp_cm_iv(const pkr_srtp_rtp_context *context, const uint8_t *ssrc, uint64_t index, uint8_t *iv)
{
    memset(iv, 0, 16);
    memcpy(iv + 4, ssrc, 4);
    for (int byte = 0; byte < 6; byte++) {
        iv[8 + byte] = (uint8_t)(index >> (8 * (5 - byte)));
    }
    for (int index_byte = 0; index_byte < PKR_CM_SALT_LENGTH; index_byte++) {
        iv[index_byte] ^= context->salt[index_byte];
    }
}

/* The 48-bit index of an RTP packet: its rollover counter, then its sequence number. */
static uint64_t pkr_srtp_rtp_index(const uint8_t *packet, uint32_t rollover_counter)
{
    return ((uint64_t)rollover_counter << 16) | ((uint64_t)packet[2] << 8) | packet[3];
}

/* AES-CM's tag: HMAC-SHA1 over the authenticated portion and a suffix (RFC 3711 section 4.2):
 * for RTP the header, encrypted payload and rollover counter, for RTCP the packet and its E
 * flag and index, already in place. The whole 20-byte code goes into code. */
static int pkr_srtp_cm_code(const pkr_srtp_rtp_context *context, const uint8_t *portion, size_t length, const uint8_t *suffix,
                            size_t suffix_length, uint8_t *code)
{
    uint8_t inner_digest[SHA_DIGEST_LENGTH];
    SHA_CTX hash = context->inner;
    int ok = SHA1_Update(&hash, portion, length) && (suffix_length == 0 || SHA1_Update(&hash, suffix, suffix_length))
        && SHA1_Final(inner_digest, &hash);
    hash = context->outer;
    ok = ok && SHA1_Update(&hash, inner_digest, sizeof inner_digest) && SHA1_Final(code, &hash);
    OPENSSL_cleanse(&hash, sizeof hash);
    return ok;
}

/* The rollover counter as RTP's authenticated suffix. */
static void pkr_srtp_counter_bytes(uint32_t rollover_counter, uint8_t *bytes)
{
    bytes[0] = (uint8_t)(rollover_counter >> 24);
    bytes[1] = (uint8_t)(rollover_counter >> 16);
    bytes[2] = (uint8_t)(rollover_counter >> 8);
    bytes[3] = (uint8_t)rollover_counter;
}

static long pkr_srtp_gcm_open(pkr_srtp_rtp_context *context, uint8_t *packet, size_t length, size_t header_length, uint32_t rollover_counter)
{
    size_t encrypted_length = length - PKR_GCM_TAG_LENGTH - header_length;
    uint8_t iv[12];
    pkr_srtp_gcm_iv(context, packet, rollover_counter, iv);
    uint8_t *payload = packet + header_length;
    if (!pkr_gcm_start(context, iv) || !pkr_gcm_associate(context, packet, header_length)
        || !pkr_gcm_crypt(context, payload, payload, encrypted_length)
        || !pkr_gcm_finish_opening(context, packet + length - PKR_GCM_TAG_LENGTH, payload + encrypted_length)) {
        return -2;
    }
    return (long)(length - PKR_GCM_TAG_LENGTH);
}

/* As libsrtp does: the tag is verified before anything is decrypted. */
static long pkr_srtp_cm_open(pkr_srtp_rtp_context *context, uint8_t *packet, size_t length, size_t header_length, uint32_t rollover_counter)
{
    size_t authenticated_length = length - PKR_CM_TAG_LENGTH;
    uint8_t code[SHA_DIGEST_LENGTH];
    uint8_t counter[4];
    pkr_srtp_counter_bytes(rollover_counter, counter);
    if (!pkr_srtp_cm_code(context, packet, authenticated_length, counter, sizeof counter, code)) {
        return -1;
    }
    if (CRYPTO_memcmp(code, packet + authenticated_length, PKR_CM_TAG_LENGTH) != 0) {
        return -2;
    }
    size_t encrypted_length = authenticated_length - header_length;
    uint8_t iv[16];
    pkr_srtp_cm_iv(context, packet + 8, pkr_srtp_rtp_index(packet, rollover_counter), iv);
    int written = 0;
    uint8_t *payload = packet + header_length;
    if (EVP_EncryptInit_ex2(context->cipher, NULL, NULL, iv, NULL) != 1
        || (encrypted_length > 0 && EVP_EncryptUpdate(context->cipher, payload, &written, payload, (int)encrypted_length) != 1)) {
        return -1;
    }
    return (long)authenticated_length;
}

long pkr_srtp_rtp_open(pkr_srtp_rtp_context *context, uint8_t *packet, size_t length, uint32_t rollover_counter)
{
    if (context == NULL || context->rtcp || context->sealing || packet == NULL || length < 12 + context->tag_length
        || length > (size_t)INT_MAX) {
        return -1;
    }
    size_t header_length = pkr_srtp_header_length(packet, length - context->tag_length);
    if (header_length == 0) {
        return -1;
    }
    if (context->profile == PKR_SRTP_RTP_AEAD_AES_128_GCM) {
        return pkr_srtp_gcm_open(context, packet, length, header_length, rollover_counter);
    }
    return pkr_srtp_cm_open(context, packet, length, header_length, rollover_counter);
}

long pkr_srtp_rtp_seal(pkr_srtp_rtp_context *context, uint8_t *packet, size_t length, size_t capacity, uint32_t rollover_counter)
{
    /* The whole packet is the head: nothing lies elsewhere. */
    return pkr_srtp_rtp_seal_split(context, packet, length, NULL, 0, capacity, rollover_counter);
}

/* GCM is a stream mode: the head's payload and the tail are encrypted as one run, the header
 * authenticated as additional data. A head with payload in it (a VP8 descriptor the caller
 * rewrote) has the tail copied behind it first: the run is then one call, where two cost about
 * 250 instructions more than the copy (the second call's way into the implementation, and a
 * block through its single-block path before the bulk one). A head of header only takes the
 * tail's ciphertext straight from where the tail lies. */
static long pkr_srtp_gcm_seal_split(pkr_srtp_rtp_context *context, uint8_t *packet, size_t header_length, size_t head_length,
                                    const uint8_t *tail, size_t tail_length, uint32_t rollover_counter)
{
    size_t head_payload_length = head_length - header_length;
    uint8_t *tail_out = packet + head_length;
    uint8_t iv[12];
    pkr_srtp_gcm_iv(context, packet, rollover_counter, iv);
    uint8_t *payload = packet + header_length;
    int crypted;
    if (head_payload_length > 0 && tail_length > 0) {
        memcpy(tail_out, tail, tail_length);
        crypted = pkr_gcm_start(context, iv) && pkr_gcm_associate(context, packet, header_length)
            && pkr_gcm_crypt(context, payload, payload, head_payload_length + tail_length);
    } else {
        crypted = pkr_gcm_start(context, iv) && pkr_gcm_associate(context, packet, header_length)
            && pkr_gcm_crypt(context, payload, payload, head_payload_length) && pkr_gcm_crypt(context, tail_out, tail, tail_length);
    }
    if (!crypted || !pkr_gcm_finish_sealing(context, tail_out + tail_length)) {
        return -1;
    }
    return (long)(head_length + tail_length + PKR_GCM_TAG_LENGTH);
}

/* Counter mode is a stream mode too; once encrypted, header and ciphertext lie together and
 * are authenticated in one run. */
static long pkr_srtp_cm_seal_split(pkr_srtp_rtp_context *context, uint8_t *packet, size_t header_length, size_t head_length,
                                   const uint8_t *tail, size_t tail_length, uint32_t rollover_counter)
{
    size_t head_payload_length = head_length - header_length;
    uint8_t *tail_out = packet + head_length;
    uint8_t iv[16];
    pkr_srtp_cm_iv(context, packet + 8, pkr_srtp_rtp_index(packet, rollover_counter), iv);
    int written = 0;
    uint8_t *payload = packet + header_length;
    uint8_t code[SHA_DIGEST_LENGTH];
    uint8_t counter[4];
    pkr_srtp_counter_bytes(rollover_counter, counter);
    if (EVP_EncryptInit_ex2(context->cipher, NULL, NULL, iv, NULL) != 1
        || (head_payload_length > 0 && EVP_EncryptUpdate(context->cipher, payload, &written, payload, (int)head_payload_length) != 1)
        || (tail_length > 0 && EVP_EncryptUpdate(context->cipher, tail_out, &written, tail, (int)tail_length) != 1)
        || !pkr_srtp_cm_code(context, packet, head_length + tail_length, counter, sizeof counter, code)) {
        return -1;
    }
    memcpy(tail_out + tail_length, code, PKR_CM_TAG_LENGTH);
    return (long)(head_length + tail_length + PKR_CM_TAG_LENGTH);
}

long pkr_srtp_rtp_seal_split(pkr_srtp_rtp_context *context, uint8_t *packet, size_t head_length, const uint8_t *tail, size_t tail_length,
                             size_t capacity, uint32_t rollover_counter)
{
    if (context == NULL || context->rtcp || !context->sealing || packet == NULL || (tail == NULL && tail_length > 0) || head_length < 12
        || head_length > (size_t)INT_MAX - context->tag_length || tail_length > (size_t)INT_MAX - context->tag_length - head_length
        || capacity < head_length + tail_length + context->tag_length) {
        return -1;
    }
    size_t header_length = pkr_srtp_header_length(packet, head_length);
    if (header_length == 0) {
        return -1;
    }
    /* The tail must lie outside the capacity bytes at packet: the head's payload is encrypted in
     * place before the tail is read, and the tail's ciphertext is written after the head, so a
     * tail within that memory would be read after parts of it were overwritten. */
    uintptr_t tail_start = (uintptr_t)tail;
    uintptr_t packet_start = (uintptr_t)packet;
    if (tail_length > 0 && tail_start < packet_start + capacity && packet_start < tail_start + tail_length) {
        return -1;
    }
    if (context->profile == PKR_SRTP_RTP_AEAD_AES_128_GCM) {
        return pkr_srtp_gcm_seal_split(context, packet, header_length, head_length, tail, tail_length, rollover_counter);
    }
    return pkr_srtp_cm_seal_split(context, packet, header_length, head_length, tail, tail_length, rollover_counter);
}

/* GCM SRTCP: IV = (0x0000 || SSRC || 0x0000 || SRTCP index) XOR session salt (RFC 7714 section 9.1). */
static void pkr_srtcp_gcm_iv(const pkr_srtp_rtp_context *context, const uint8_t *packet, uint32_t index, uint8_t *iv)
{
    memset(iv, 0, 12);
    memcpy(iv + 2, packet + 4, 4);
    iv[8] = (uint8_t)(index >> 24);
    iv[9] = (uint8_t)(index >> 16);
    iv[10] = (uint8_t)(index >> 8);
    iv[11] = (uint8_t)index;
    for (int byte = 0; byte < 12; byte++) {
        iv[byte] ^= context->salt[byte];
    }
}

static void pkr_srtcp_write_trailer(uint8_t *trailer, uint32_t index)
{
    uint32_t word = PKR_SRTCP_E_FLAG | (index & PKR_SRTCP_INDEX_MASK);
    trailer[0] = (uint8_t)(word >> 24);
    trailer[1] = (uint8_t)(word >> 16);
    trailer[2] = (uint8_t)(word >> 8);
    trailer[3] = (uint8_t)word;
}

static uint32_t pkr_srtcp_read_index(const uint8_t *trailer)
{
    uint32_t word = ((uint32_t)trailer[0] << 24) | ((uint32_t)trailer[1] << 16) | ((uint32_t)trailer[2] << 8) | trailer[3];
    return word & PKR_SRTCP_INDEX_MASK;
}

long pkr_srtcp_seal(pkr_srtp_rtp_context *context, uint8_t *packet, size_t length, size_t capacity, uint32_t index)
{
    if (context == NULL || !context->rtcp || !context->sealing || packet == NULL || length < PKR_SRTCP_HEADER_LENGTH
        || length > (size_t)INT_MAX - PKR_SRTCP_TRAILER_LENGTH - context->tag_length
        || capacity < length + PKR_SRTCP_TRAILER_LENGTH + context->tag_length || index > PKR_SRTCP_INDEX_MASK) {
        return -1;
    }
    uint8_t *payload = packet + PKR_SRTCP_HEADER_LENGTH;
    size_t payload_length = length - PKR_SRTCP_HEADER_LENGTH;
    int written = 0;
    if (context->profile == PKR_SRTP_RTP_AEAD_AES_128_GCM) {
        /* header | ciphertext | tag | E flag and index; the header and the trailer word are the
         * associated data. */
        uint8_t *tag = packet + length;
        uint8_t *trailer = tag + PKR_GCM_TAG_LENGTH;
        pkr_srtcp_write_trailer(trailer, index);
        uint8_t iv[12];
        pkr_srtcp_gcm_iv(context, packet, index, iv);
        if (!pkr_gcm_start(context, iv) || !pkr_gcm_associate(context, packet, PKR_SRTCP_HEADER_LENGTH)
            || !pkr_gcm_associate(context, trailer, PKR_SRTCP_TRAILER_LENGTH) || !pkr_gcm_crypt(context, payload, payload, payload_length)
            || !pkr_gcm_finish_sealing(context, tag)) {
            return -1;
        }
    } else {
        /* header | ciphertext | E flag and index | tag over all that before it. */
        uint8_t *trailer = packet + length;
        pkr_srtcp_write_trailer(trailer, index);
        uint8_t iv[16];
        pkr_srtp_cm_iv(context, packet + 4, index, iv);
        uint8_t code[SHA_DIGEST_LENGTH];
        if (EVP_EncryptInit_ex2(context->cipher, NULL, NULL, iv, NULL) != 1
            || (payload_length > 0 && EVP_EncryptUpdate(context->cipher, payload, &written, payload, (int)payload_length) != 1)
            || !pkr_srtp_cm_code(context, packet, length + PKR_SRTCP_TRAILER_LENGTH, NULL, 0, code)) {
            return -1;
        }
        memcpy(trailer + PKR_SRTCP_TRAILER_LENGTH, code, PKR_CM_TAG_LENGTH);
    }
    return (long)(length + PKR_SRTCP_TRAILER_LENGTH + context->tag_length);
}

long pkr_srtcp_open(pkr_srtp_rtp_context *context, uint8_t *packet, size_t length)
{
    if (context == NULL || !context->rtcp || context->sealing || packet == NULL
        || length < PKR_SRTCP_HEADER_LENGTH + PKR_SRTCP_TRAILER_LENGTH + context->tag_length || length > (size_t)INT_MAX) {
        return -1;
    }
    size_t plain_length = length - PKR_SRTCP_TRAILER_LENGTH - context->tag_length;
    uint8_t *payload = packet + PKR_SRTCP_HEADER_LENGTH;
    size_t payload_length = plain_length - PKR_SRTCP_HEADER_LENGTH;
    int written = 0;
    if (context->profile == PKR_SRTP_RTP_AEAD_AES_128_GCM) {
        uint8_t *tag = packet + plain_length;
        uint8_t *trailer = tag + PKR_GCM_TAG_LENGTH;
        uint32_t index = pkr_srtcp_read_index(trailer);
        /* Without the E flag the packet was sent unencrypted (RFC 7714 section 9.3): all of it is
         * associated data, as libsrtp takes it. */
        int encrypted = (trailer[0] & 0x80) != 0;
        size_t associated_length = encrypted ? PKR_SRTCP_HEADER_LENGTH : plain_length;
        size_t encrypted_length = encrypted ? payload_length : 0;
        uint8_t iv[12];
        pkr_srtcp_gcm_iv(context, packet, index, iv);
        if (!pkr_gcm_start(context, iv) || !pkr_gcm_associate(context, packet, associated_length)
            || !pkr_gcm_associate(context, trailer, PKR_SRTCP_TRAILER_LENGTH) || !pkr_gcm_crypt(context, payload, payload, encrypted_length)
            || !pkr_gcm_finish_opening(context, tag, payload + encrypted_length)) {
            return -2;
        }
        return (long)plain_length;
    }
    /* As libsrtp does: the tag is verified before anything is decrypted. */
    size_t authenticated_length = length - PKR_CM_TAG_LENGTH;
    uint8_t code[SHA_DIGEST_LENGTH];
    if (!pkr_srtp_cm_code(context, packet, authenticated_length, NULL, 0, code)) {
        return -1;
    }
    if (CRYPTO_memcmp(code, packet + authenticated_length, PKR_CM_TAG_LENGTH) != 0) {
        return -2;
    }
    uint8_t iv[16];
    pkr_srtp_cm_iv(context, packet + 4, pkr_srtcp_read_index(packet + plain_length), iv);
    if (EVP_EncryptInit_ex2(context->cipher, NULL, NULL, iv, NULL) != 1
        || (payload_length > 0 && EVP_EncryptUpdate(context->cipher, payload, &written, payload, (int)payload_length) != 1)) {
        return -1;
    }
    return (long)plain_length;
}
