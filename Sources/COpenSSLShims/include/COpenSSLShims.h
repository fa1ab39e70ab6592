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

/* HMAC-SHA-1 of message under key; writes 20 bytes to code. */
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
