#include "COpenSSLShims.h"

#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

/* Swift hands over a null base address for empty arrays; OpenSSL wants a
 * real pointer even when the length is zero. */
static const uint8_t pkr_empty[1] = {0};

static const uint8_t *pkr_non_null(const uint8_t *bytes)
{
    return bytes != NULL ? bytes : pkr_empty;
}

int pkr_rand_bytes(uint8_t *buffer, size_t count)
{
    if (count == 0) {
        return 1;
    }
    if (buffer == NULL) {
        return 0;
    }
    /* RAND_bytes takes an int, so feed large requests in slices. */
    while (count > 0) {
        int slice = count > (size_t)INT_MAX ? INT_MAX : (int)count;
        if (RAND_bytes(buffer, slice) != 1) {
            return 0;
        }
        buffer += slice;
        count -= (size_t)slice;
    }
    return 1;
}

static int pkr_hmac(const EVP_MD *digest, size_t code_length,
                    const uint8_t *key, size_t key_length,
                    const uint8_t *message, size_t message_length,
                    uint8_t *code)
{
    if (code == NULL || key_length > (size_t)INT_MAX) {
        return 0;
    }
    unsigned int written = 0;
    if (HMAC(digest, pkr_non_null(key), (int)key_length,
             pkr_non_null(message), message_length, code, &written) == NULL) {
        return 0;
    }
    return written == code_length ? 1 : 0;
}

int pkr_hmac_sha256(const uint8_t *key, size_t key_length,
                    const uint8_t *message, size_t message_length,
                    uint8_t *code)
{
    return pkr_hmac(EVP_sha256(), 32, key, key_length, message, message_length, code);
}

int pkr_constant_time_equal(const uint8_t *a, const uint8_t *b, size_t length)
{
    if (length == 0) {
        return 1;
    }
    if (a == NULL || b == NULL) {
        return 0;
    }
    return CRYPTO_memcmp(a, b, length) == 0 ? 1 : 0;
}

/* Runs one EVP encryption over input; shared by the ECB and CTR wrappers. */
static int pkr_aes128_encrypt(const EVP_CIPHER *cipher, const uint8_t *key,
                              const uint8_t *iv, const uint8_t *input,
                              uint8_t *output, size_t length)
{
    if (key == NULL || length > (size_t)INT_MAX) {
        return 0;
    }
    if (length == 0) {
        return 1;
    }
    if (input == NULL || output == NULL) {
        return 0;
    }
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    if (context == NULL) {
        return 0;
    }
    int ok = 0;
    int written = 0;
    int final_written = 0;
    if (EVP_EncryptInit_ex(context, cipher, NULL, key, iv) == 1
        && EVP_CIPHER_CTX_set_padding(context, 0) == 1
        && EVP_EncryptUpdate(context, output, &written, input, (int)length) == 1
        && EVP_EncryptFinal_ex(context, output + written, &final_written) == 1) {
        ok = ((size_t)(written + final_written) == length) ? 1 : 0;
    }
    EVP_CIPHER_CTX_free(context);
    return ok;
}

int pkr_aes128_encrypt_block(const uint8_t *key, const uint8_t *input, uint8_t *output)
{
    return pkr_aes128_encrypt(EVP_aes_128_ecb(), key, NULL, input, output, 16);
}

int pkr_aes128_ctr_apply(const uint8_t *key, const uint8_t *initial_counter,
                         const uint8_t *input, uint8_t *output, size_t length)
{
    if (initial_counter == NULL) {
        return 0;
    }
    return pkr_aes128_encrypt(EVP_aes_128_ctr(), key, initial_counter, input, output, length);
}

int pkr_aes128_gcm_seal(const uint8_t *key, const uint8_t *iv,
                        const uint8_t *aad, size_t aad_length,
                        const uint8_t *plaintext, size_t length,
                        uint8_t *ciphertext, uint8_t *tag)
{
    if (key == NULL || iv == NULL || tag == NULL
        || aad_length > (size_t)INT_MAX || length > (size_t)INT_MAX) {
        return 0;
    }
    if (length > 0 && (plaintext == NULL || ciphertext == NULL)) {
        return 0;
    }
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    if (context == NULL) {
        return 0;
    }
    int ok = 0;
    int written = 0;
    int final_written = 0;
    uint8_t scratch[16];
    if (EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), NULL, NULL, NULL) == 1
        && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) == 1
        && EVP_EncryptInit_ex(context, NULL, NULL, key, iv) == 1
        && (aad_length == 0
            || EVP_EncryptUpdate(context, NULL, &written, aad, (int)aad_length) == 1)
        && (length == 0
            || EVP_EncryptUpdate(context, ciphertext, &written, plaintext, (int)length) == 1)
        && EVP_EncryptFinal_ex(context, length > 0 ? ciphertext + written : scratch,
                               &final_written) == 1
        && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1) {
        ok = 1;
    }
    EVP_CIPHER_CTX_free(context);
    return ok;
}
