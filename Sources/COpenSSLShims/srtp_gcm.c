#include "COpenSSLShims.h"

#include <limits.h>
#include <stdint.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

/* RFC 7714: a 16-byte tag after the encrypted payload, a 12-byte IV and salt. */
#define PKR_GCM_TAG_LENGTH 16
#define PKR_GCM_SALT_LENGTH 12

struct pkr_srtp_gcm_context {
    EVP_CIPHER_CTX *cipher;
    uint8_t salt[PKR_GCM_SALT_LENGTH];
    int sealing;
};

/* The AES-CM PRF of RFC 3711 section 4.3.3 for packet index 0 (key derivation rate zero):
 * the first block of the keystream from x * 2^16, with x the 96-bit master salt (extended
 * with zero bits to 112, as RFC 7714's errata says) XORed with the label in byte 7. */
static int pkr_srtp_derive(const uint8_t *master_key, const uint8_t *master_salt, uint8_t label, uint8_t *block)
{
    uint8_t counter[16] = {0};
    memcpy(counter, master_salt, PKR_GCM_SALT_LENGTH);
    counter[7] ^= label;
    return pkr_aes128_encrypt_block(master_key, counter, block);
}

pkr_srtp_gcm_context *pkr_srtp_gcm_create(const uint8_t *master_key, const uint8_t *master_salt, int sealing)
{
    if (master_key == NULL || master_salt == NULL) {
        return NULL;
    }
    uint8_t session_key[16];
    uint8_t session_salt[16];
    if (pkr_srtp_derive(master_key, master_salt, 0x00, session_key) != 1
        || pkr_srtp_derive(master_key, master_salt, 0x02, session_salt) != 1) {
        return NULL;
    }
    pkr_srtp_gcm_context *gcm = calloc(1, sizeof(*gcm));
    if (gcm == NULL) {
        return NULL;
    }
    gcm->sealing = sealing != 0;
    gcm->cipher = EVP_CIPHER_CTX_new();
    int ok = gcm->cipher != NULL
        && EVP_CipherInit_ex(gcm->cipher, EVP_aes_128_gcm(), NULL, NULL, NULL, gcm->sealing) == 1
        && EVP_CIPHER_CTX_ctrl(gcm->cipher, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) == 1
        && EVP_CipherInit_ex(gcm->cipher, NULL, NULL, session_key, NULL, gcm->sealing) == 1;
    memcpy(gcm->salt, session_salt, PKR_GCM_SALT_LENGTH);
    OPENSSL_cleanse(session_key, sizeof(session_key));
    OPENSSL_cleanse(session_salt, sizeof(session_salt));
    if (!ok) {
        pkr_srtp_gcm_destroy(gcm);
        return NULL;
    }
    return gcm;
}

void pkr_srtp_gcm_destroy(pkr_srtp_gcm_context *gcm)
{
    if (gcm == NULL) {
        return;
    }
    EVP_CIPHER_CTX_free(gcm->cipher);
    OPENSSL_cleanse(gcm->salt, sizeof(gcm->salt));
    free(gcm);
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

/* IV = (0x0000 || SSRC || ROC || SEQ) XOR session salt (RFC 7714 section 8.1). */
static void pkr_srtp_gcm_iv(const pkr_srtp_gcm_context *gcm, const uint8_t *packet, uint32_t rollover_counter, uint8_t *iv)
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
        iv[index] ^= gcm->salt[index];
    }
}

long pkr_srtp_gcm_open(pkr_srtp_gcm_context *gcm, uint8_t *packet, size_t length, uint32_t rollover_counter)
{
    if (gcm == NULL || gcm->sealing || packet == NULL || length < 12 + PKR_GCM_TAG_LENGTH || length > (size_t)INT_MAX) {
        return -1;
    }
    size_t header_length = pkr_srtp_header_length(packet, length - PKR_GCM_TAG_LENGTH);
    if (header_length == 0) {
        return -1;
    }
    size_t encrypted_length = length - PKR_GCM_TAG_LENGTH - header_length;
    uint8_t iv[12];
    pkr_srtp_gcm_iv(gcm, packet, rollover_counter, iv);
    int written = 0;
    int final_written = 0;
    uint8_t *payload = packet + header_length;
    if (EVP_DecryptInit_ex2(gcm->cipher, NULL, NULL, iv, NULL) != 1
        || EVP_DecryptUpdate(gcm->cipher, NULL, &written, packet, (int)header_length) != 1
        || (encrypted_length > 0
            && EVP_DecryptUpdate(gcm->cipher, payload, &written, payload, (int)encrypted_length) != 1)
        || EVP_CIPHER_CTX_ctrl(gcm->cipher, EVP_CTRL_GCM_SET_TAG, PKR_GCM_TAG_LENGTH, packet + length - PKR_GCM_TAG_LENGTH) != 1
        || EVP_DecryptFinal_ex(gcm->cipher, payload + (encrypted_length > 0 ? written : 0), &final_written) != 1) {
        return -2;
    }
    return (long)(length - PKR_GCM_TAG_LENGTH);
}

long pkr_srtp_gcm_seal(pkr_srtp_gcm_context *gcm, uint8_t *packet, size_t length, size_t capacity, uint32_t rollover_counter)
{
    /* The whole packet is the head: nothing lies elsewhere. */
    return pkr_srtp_gcm_seal_split(gcm, packet, length, NULL, 0, capacity, rollover_counter);
}

long pkr_srtp_gcm_seal_split(pkr_srtp_gcm_context *gcm, uint8_t *packet, size_t head_length, const uint8_t *tail, size_t tail_length,
                             size_t capacity, uint32_t rollover_counter)
{
    if (gcm == NULL || !gcm->sealing || packet == NULL || (tail == NULL && tail_length > 0) || head_length < 12
        || head_length > (size_t)INT_MAX - PKR_GCM_TAG_LENGTH || tail_length > (size_t)INT_MAX - PKR_GCM_TAG_LENGTH - head_length
        || capacity < head_length + tail_length + PKR_GCM_TAG_LENGTH) {
        return -1;
    }
    size_t header_length = pkr_srtp_header_length(packet, head_length);
    if (header_length == 0) {
        return -1;
    }
    /* The tail must not overlap where its ciphertext goes: OpenSSL encrypts in place or into
     * separate memory, never into a shifted copy of its input. */
    uint8_t *tail_out = packet + head_length;
    uintptr_t tail_start = (uintptr_t)tail;
    uintptr_t out_start = (uintptr_t)tail_out;
    if (tail_length > 0 && tail_start < out_start + tail_length + PKR_GCM_TAG_LENGTH && out_start < tail_start + tail_length) {
        return -1;
    }
    size_t head_payload_length = head_length - header_length;
    uint8_t iv[12];
    pkr_srtp_gcm_iv(gcm, packet, rollover_counter, iv);
    int written = 0;
    int final_written = 0;
    uint8_t *payload = packet + header_length;
    /* GCM is a stream mode: the head's payload and the tail are encrypted as one run. */
    if (EVP_EncryptInit_ex2(gcm->cipher, NULL, NULL, iv, NULL) != 1
        || EVP_EncryptUpdate(gcm->cipher, NULL, &written, packet, (int)header_length) != 1
        || (head_payload_length > 0 && EVP_EncryptUpdate(gcm->cipher, payload, &written, payload, (int)head_payload_length) != 1)
        || (tail_length > 0 && EVP_EncryptUpdate(gcm->cipher, tail_out, &written, tail, (int)tail_length) != 1)
        || EVP_EncryptFinal_ex(gcm->cipher, tail_out + tail_length, &final_written) != 1
        || EVP_CIPHER_CTX_ctrl(gcm->cipher, EVP_CTRL_GCM_GET_TAG, PKR_GCM_TAG_LENGTH, tail_out + tail_length) != 1) {
        return -1;
    }
    return (long)(head_length + tail_length + PKR_GCM_TAG_LENGTH);
}
