// AES-256-GCM for `storage`'s secure values, with OpenSSL's libcrypto 3 opened on first use
// (dlopen, as CSQLite opens SQLite): a run that never stores a secure value does not map it.
// OpenSSL's headers (libssl-dev) give the prototypes the forwarders check against.
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

#endif
