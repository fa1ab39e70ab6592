// HMAC-SHA-1 (RFC 2104) over OpenSSL's low-level SHA-1, every context on the stack.
//
// OpenSSL 3's one-shot HMAC() fetches the digest and allocates a MAC context on every call
// (about a dozen allocations); STUN checks are answered on the media thread, which must not
// allocate. SHA1_Init/Update/Final are deprecated in OpenSSL 3 in favour of EVP, but they are
// the only interface whose state lives in the caller's memory.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <string.h>

#include "COpenSSLShims.h"

int pkr_hmac_sha1(const uint8_t *key, size_t key_length,
                  const uint8_t *message, size_t message_length,
                  uint8_t *code)
{
    if (code == NULL || (key == NULL && key_length > 0) || (message == NULL && message_length > 0)) {
        return 0;
    }
    SHA_CTX context;
    uint8_t block[SHA_CBLOCK];
    uint8_t pad[SHA_CBLOCK];
    uint8_t digest[SHA_DIGEST_LENGTH];
    int ok = 1;
    memset(block, 0, sizeof block);
    // A key longer than the block is replaced by its hash.
    if (key_length > SHA_CBLOCK) {
        ok = SHA1_Init(&context) && SHA1_Update(&context, key, key_length) && SHA1_Final(block, &context);
    } else if (key_length > 0) {
        memcpy(block, key, key_length);
    }
    for (size_t index = 0; ok && index < SHA_CBLOCK; index++) {
        pad[index] = block[index] ^ 0x36;
    }
    ok = ok && SHA1_Init(&context) && SHA1_Update(&context, pad, SHA_CBLOCK)
        && (message_length == 0 || SHA1_Update(&context, message, message_length))
        && SHA1_Final(digest, &context);
    for (size_t index = 0; ok && index < SHA_CBLOCK; index++) {
        pad[index] = block[index] ^ 0x5c;
    }
    ok = ok && SHA1_Init(&context) && SHA1_Update(&context, pad, SHA_CBLOCK)
        && SHA1_Update(&context, digest, SHA_DIGEST_LENGTH) && SHA1_Final(code, &context);
    OPENSSL_cleanse(block, sizeof block);
    OPENSSL_cleanse(pad, sizeof pad);
    OPENSSL_cleanse(digest, sizeof digest);
    OPENSSL_cleanse(&context, sizeof context);
    return ok ? 1 : 0;
}
