#include "CSRTP.h"

#include <pthread.h>
#include <string.h>

static pthread_once_t pkr_srtp_once = PTHREAD_ONCE_INIT;
static srtp_err_status_t pkr_srtp_init_status = srtp_err_status_init_fail;

/* Held for the life of the process; see pkr_srtp_run_init. */
static srtp_t pkr_srtp_nss_keeper = NULL;

static void pkr_srtp_run_init(void)
{
    pkr_srtp_init_status = srtp_init();
    if (pkr_srtp_init_status != srtp_err_status_ok) {
        return;
    }
    /* Debian's libsrtp takes its ciphers from NSS: each cipher opens an NSS context and
     * closes it when freed. When the last context closes NSS unloads its soft token, and the
     * next session loads it again (a dlopen, most of what creating a session costs). One
     * session kept open for good keeps NSS loaded, so a relay that goes idle and gets its
     * next transport does not pay that again. Failing to make it costs only that time. */
    uint8_t material[SRTP_AES_GCM_128_KEY_LEN_WSALT] = {0};
    (void)pkr_srtp_session_create(&pkr_srtp_nss_keeper, PKR_SRTP_PROFILE_AEAD_AES_128_GCM, material, sizeof(material),
                                  PKR_SRTP_DIRECTION_RECEIVER, 64);
}

srtp_err_status_t pkr_srtp_initialize(void)
{
    /* pthread_once also orders the write of the status before every read. */
    if (pthread_once(&pkr_srtp_once, pkr_srtp_run_init) != 0) {
        return srtp_err_status_init_fail;
    }
    return pkr_srtp_init_status;
}

/* Overwrites key bytes in a way the compiler may not drop as a dead store. */
static void pkr_srtp_wipe(uint8_t *bytes, size_t length)
{
    volatile uint8_t *cursor = bytes;
    while (length-- > 0) {
        *cursor++ = 0;
    }
}

srtp_err_status_t pkr_srtp_session_create(srtp_t *session,
                                          int profile,
                                          const uint8_t *keying_material,
                                          size_t keying_material_length,
                                          int direction,
                                          unsigned long replay_window_size)
{
    if (session == NULL || keying_material == NULL) {
        return srtp_err_status_bad_param;
    }
    *session = NULL;

    srtp_policy_t policy;
    memset(&policy, 0, sizeof(policy));

    size_t expected_length;
    switch (profile) {
    case PKR_SRTP_PROFILE_AES_CM_128_HMAC_SHA1_80:
        /* The _80 setter is a macro for the defaults, so call them directly. */
        srtp_crypto_policy_set_rtp_default(&policy.rtp);
        srtp_crypto_policy_set_rtcp_default(&policy.rtcp);
        expected_length = SRTP_AES_ICM_128_KEY_LEN_WSALT;
        break;
    case PKR_SRTP_PROFILE_AEAD_AES_128_GCM:
        srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtp);
        srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtcp);
        expected_length = SRTP_AES_GCM_128_KEY_LEN_WSALT;
        break;
    default:
        return srtp_err_status_bad_param;
    }
    if (keying_material_length != expected_length) {
        return srtp_err_status_bad_param;
    }

    switch (direction) {
    case PKR_SRTP_DIRECTION_SENDER:
        policy.ssrc.type = ssrc_any_outbound;
        policy.allow_repeat_tx = 1;
        break;
    case PKR_SRTP_DIRECTION_RECEIVER:
        policy.ssrc.type = ssrc_any_inbound;
        policy.allow_repeat_tx = 0;
        break;
    default:
        return srtp_err_status_bad_param;
    }

    /* libsrtp wants a writable key pointer; it derives session keys during
     * srtp_create and keeps no reference to this buffer afterwards. */
    uint8_t key_copy[SRTP_MAX_KEY_LEN];
    memcpy(key_copy, keying_material, keying_material_length);
    policy.key = key_copy;
    policy.window_size = replay_window_size;
    policy.next = NULL;

    srtp_err_status_t status = srtp_create(session, &policy);
    pkr_srtp_wipe(key_copy, sizeof(key_copy));
    if (status != srtp_err_status_ok) {
        *session = NULL;
    }
    return status;
}
