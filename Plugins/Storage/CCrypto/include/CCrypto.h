// Cryptography for `storage`'s secure values, with OpenSSL's libcrypto 3 opened on first use (dlopen,
// as CSQLite opens SQLite): a run that never stores a secure value does not map it. OpenSSL's
// headers (libssl-dev) give the prototypes the forwarders are checked against.
#ifndef NBRIDGE_CCRYPTO_H
#define NBRIDGE_CCRYPTO_H

#include <stddef.h>
#include <stdint.h>

/// The key, nonce and tag sizes of AES-256-GCM as nbridge uses it, in bytes.
enum { NBCRYPTO_KEY_BYTES = 32, NBCRYPTO_NONCE_BYTES = 12, NBCRYPTO_TAG_BYTES = 16 };

/// Why libcrypto could not be opened (dlerror's text), or NULL when it is open; opens it if not tried yet.
const char *nbcrypto_load_error(void);

/// Fills `length` bytes of `buffer` from the kernel's random source (getrandom); 0 or errno.
int nbcrypto_random(uint8_t *buffer, size_t length);

/// Encrypts `length` bytes of `plaintext` into `ciphertext` (as many bytes) with `key` and `nonce`,
/// authenticating `aad` too, and writes the tag; 1 on success, 0 on failure (libcrypto missing).
int nbcrypto_seal(const uint8_t *key, const uint8_t *nonce, const uint8_t *aad, size_t aad_length,
                  const uint8_t *plaintext, size_t length, uint8_t *ciphertext, uint8_t *tag);

/// Decrypts `length` bytes of `ciphertext` into `plaintext`; 1 when `tag` proves them (and `aad`)
/// unchanged and made with `key`, 0 otherwise (nothing in `plaintext` is to be used then).
int nbcrypto_open(const uint8_t *key, const uint8_t *nonce, const uint8_t *aad, size_t aad_length,
                  const uint8_t *ciphertext, size_t length, const uint8_t *tag, uint8_t *plaintext);

/// The Secret Service's `dh-ietf1024-sha256-aes128-cbc-pkcs7` session: the sizes of the group's
/// numbers (RFC 2409's 1024-bit MODP group, generator 2), of the AES-128 key and its CBC block.
enum { NBCRYPTO_DH_BYTES = 128, NBCRYPTO_SESSION_KEY_BYTES = 16, NBCRYPTO_BLOCK_BYTES = 16 };

/// Makes a private number (`private_key`, 128 bytes, from getrandom) and the public one to send
/// (`public_key`, big-endian, `*public_length` bytes of at most 128); 1 on success.
int nbcrypto_dh_keypair(uint8_t *private_key, uint8_t *public_key, size_t *public_length);

/// The session's AES-128 key from the peer's public number: HKDF-SHA256 (no salt, no info) of
/// the shared secret. 1 on success; 2 when the secret has fewer than 128 significant bytes
/// (implementations disagree on padding it: open another session); 0 on failure.
int nbcrypto_dh_session_key(const uint8_t *private_key, const uint8_t *peer, size_t peer_length, uint8_t *key);

/// AES-128-CBC with PKCS#7 padding: `output` holds `length` + 16 bytes; `*output_length` is set.
/// `encrypt` 1 encrypts, 0 decrypts (which fails, 0, when the padding is wrong). 1 on success.
int nbcrypto_cbc(int encrypt, const uint8_t *key, const uint8_t *iv, const uint8_t *input, size_t length,
                 uint8_t *output, size_t *output_length);

/// HKDF-SHA256 (RFC 5869) with an all-zero salt: 32 bytes of `key` from `length` bytes of
/// `secret` and `info_length` bytes of `info` (the Secret portal's per-app secret to this app's
/// storage key). 1 on success, 0 on failure (libcrypto missing).
int nbcrypto_hkdf_sha256(const uint8_t *secret, size_t length, const uint8_t *info, size_t info_length, uint8_t *key);

#endif
