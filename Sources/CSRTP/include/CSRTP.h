#pragma once

#include <stddef.h>
#include <stdint.h>
#include <srtp2/srtp.h>

/* Protection profiles understood by pkr_srtp_session_create. */
#define PKR_SRTP_PROFILE_AES_CM_128_HMAC_SHA1_80 1
#define PKR_SRTP_PROFILE_AEAD_AES_128_GCM 2

/* Which way the packets protected by a session travel. */
#define PKR_SRTP_DIRECTION_SENDER 0
#define PKR_SRTP_DIRECTION_RECEIVER 1

/*
 * Runs srtp_init exactly once per process, however many threads call it at the
 * same time, and returns the status of that single run on every call.
 */
srtp_err_status_t pkr_srtp_initialize(void);

/*
 * Creates an SRTP session with one wildcard-SSRC policy: any outbound SSRC for
 * a sender, any inbound SSRC for a receiver. Sender sessions allow protecting
 * the same sequence number again, because retransmissions answering a NACK
 * reuse it. The keying material is master key followed by master salt and is
 * copied; the caller may wipe it afterwards.
 */
srtp_err_status_t pkr_srtp_session_create(srtp_t *session,
                                          int profile,
                                          const uint8_t *keying_material,
                                          size_t keying_material_length,
                                          int direction,
                                          unsigned long replay_window_size);
