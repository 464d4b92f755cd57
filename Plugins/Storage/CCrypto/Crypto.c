// AES-256-GCM for secure values and the Secret Service's DH session (AES-128-CBC, HKDF-SHA256),
// through OpenSSL's libcrypto.so.3, opened on first use. Only the functions below are looked up
// (nb_library_open, CLibraryLoader).

#include "CCrypto.h"

#include <CLibraryLoader.h>
#include <errno.h>
#include <limits.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <string.h>
#include <pthread.h>
#include <sys/random.h>

// F(name, return type, parameters)
#define CRYPTO_FUNCTIONS(F) \
  F(EVP_CIPHER_CTX_new, EVP_CIPHER_CTX *, (void)) \
  F(EVP_CIPHER_CTX_free, void, (EVP_CIPHER_CTX *)) \
  F(EVP_CIPHER_CTX_ctrl, int, (EVP_CIPHER_CTX *, int, int, void *)) \
  F(EVP_aes_256_gcm, const EVP_CIPHER *, (void)) \
  F(EVP_EncryptInit_ex, int, (EVP_CIPHER_CTX *, const EVP_CIPHER *, ENGINE *, const unsigned char *, \
                              const unsigned char *)) \
  F(EVP_EncryptUpdate, int, (EVP_CIPHER_CTX *, unsigned char *, int *, const unsigned char *, int)) \
  F(EVP_EncryptFinal_ex, int, (EVP_CIPHER_CTX *, unsigned char *, int *)) \
  F(EVP_DecryptInit_ex, int, (EVP_CIPHER_CTX *, const EVP_CIPHER *, ENGINE *, const unsigned char *, \
                              const unsigned char *)) \
  F(EVP_DecryptUpdate, int, (EVP_CIPHER_CTX *, unsigned char *, int *, const unsigned char *, int)) \
  F(EVP_DecryptFinal_ex, int, (EVP_CIPHER_CTX *, unsigned char *, int *)) \
  F(EVP_aes_128_cbc, const EVP_CIPHER *, (void)) \
  F(EVP_sha256, const EVP_MD *, (void)) \
  F(HMAC, unsigned char *, (const EVP_MD *, const void *, int, const unsigned char *, size_t, unsigned char *, \
                            unsigned int *)) \
  F(BN_CTX_new, BN_CTX *, (void)) \
  F(BN_CTX_free, void, (BN_CTX *)) \
  F(BN_new, BIGNUM *, (void)) \
  F(BN_clear_free, void, (BIGNUM *)) \
  F(BN_bin2bn, BIGNUM *, (const unsigned char *, int, BIGNUM *)) \
  F(BN_bn2bin, int, (const BIGNUM *, unsigned char *)) \
  F(BN_num_bits, int, (const BIGNUM *)) \
  F(BN_set_word, int, (BIGNUM *, BN_ULONG)) \
  F(BN_cmp, int, (const BIGNUM *, const BIGNUM *)) \
  F(BN_is_one, int, (const BIGNUM *)) \
  F(BN_is_zero, int, (const BIGNUM *)) \
  F(BN_mod_exp, int, (BIGNUM *, const BIGNUM *, const BIGNUM *, const BIGNUM *, BN_CTX *)) \
  F(BN_get_rfc2409_prime_1024, BIGNUM *, (BIGNUM *))

#define POINTER(name, ret, params) static ret(*real_##name) params;
CRYPTO_FUNCTIONS(POINTER)

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static char load_error[256];

static void load(void) {
  static const char *const libraries[] = {"libcrypto.so.3"};
#define SYMBOL(name, ret, params) {#name, (void **)&real_##name},
  static const NBLibrarySymbol symbols[] = {CRYPTO_FUNCTIONS(SYMBOL)};
  nb_library_open(libraries, 1, symbols, sizeof symbols / sizeof *symbols, load_error, sizeof load_error);
}

const char *nbcrypto_load_error(void) {
  pthread_once(&loaded, load);
  return load_error[0] ? load_error : NULL;
}

int nbcrypto_random(uint8_t *buffer, size_t length) {
  size_t filled = 0;
  while (filled < length) {
    ssize_t count = getrandom(buffer + filled, length - filled, 0);
    if (count < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    filled += (size_t)count;
  }
  return 0;
}

// Both directions share the set-up: the cipher, the nonce length, then key and nonce.
static EVP_CIPHER_CTX *start(int encrypt, const uint8_t *key, const uint8_t *nonce, const uint8_t *aad,
                             size_t aad_length) {
  if (nbcrypto_load_error() != NULL || aad_length > INT_MAX) return NULL;
  EVP_CIPHER_CTX *context = real_EVP_CIPHER_CTX_new();
  if (context == NULL) return NULL;
  int (*init)(EVP_CIPHER_CTX *, const EVP_CIPHER *, ENGINE *, const unsigned char *, const unsigned char *) =
      encrypt ? real_EVP_EncryptInit_ex : real_EVP_DecryptInit_ex;
  int (*update)(EVP_CIPHER_CTX *, unsigned char *, int *, const unsigned char *, int) =
      encrypt ? real_EVP_EncryptUpdate : real_EVP_DecryptUpdate;
  int written = 0;
  if (init(context, real_EVP_aes_256_gcm(), NULL, NULL, NULL) != 1 ||
      real_EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, NBCRYPTO_NONCE_BYTES, NULL) != 1 ||
      init(context, NULL, NULL, key, nonce) != 1 ||
      (aad_length > 0 && update(context, NULL, &written, aad, (int)aad_length) != 1)) {
    real_EVP_CIPHER_CTX_free(context);
    return NULL;
  }
  return context;
}

int nbcrypto_seal(const uint8_t *key, const uint8_t *nonce, const uint8_t *aad, size_t aad_length,
                  const uint8_t *plaintext, size_t length, uint8_t *ciphertext, uint8_t *tag) {
  if (length > INT_MAX) return 0;
  EVP_CIPHER_CTX *context = start(1, key, nonce, aad, aad_length);
  if (context == NULL) return 0;
  int written = 0, last = 0;
  int ok = (length == 0 || real_EVP_EncryptUpdate(context, ciphertext, &written, plaintext, (int)length) == 1) &&
           real_EVP_EncryptFinal_ex(context, ciphertext + written, &last) == 1 &&
           real_EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, NBCRYPTO_TAG_BYTES, tag) == 1;
  real_EVP_CIPHER_CTX_free(context);
  return ok;
}

int nbcrypto_open(const uint8_t *key, const uint8_t *nonce, const uint8_t *aad, size_t aad_length,
                  const uint8_t *ciphertext, size_t length, const uint8_t *tag, uint8_t *plaintext) {
  if (length > INT_MAX) return 0;
  EVP_CIPHER_CTX *context = start(0, key, nonce, aad, aad_length);
  if (context == NULL) return 0;
  int written = 0, last = 0;
  int ok = (length == 0 || real_EVP_DecryptUpdate(context, plaintext, &written, ciphertext, (int)length) == 1) &&
           real_EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, NBCRYPTO_TAG_BYTES, (void *)tag) == 1 &&
           real_EVP_DecryptFinal_ex(context, plaintext + written, &last) == 1;
  real_EVP_CIPHER_CTX_free(context);
  return ok;
}

// 2^exponent mod p, or peer^exponent mod p, as numbers of the RFC 2409 1024-bit group.
static BIGNUM *power(const uint8_t *base, size_t base_length, const uint8_t *exponent) {
  BN_CTX *context = real_BN_CTX_new();
  BIGNUM *prime = real_BN_get_rfc2409_prime_1024(NULL);
  BIGNUM *b = base ? real_BN_bin2bn(base, (int)base_length, NULL) : real_BN_new();
  BIGNUM *e = real_BN_bin2bn(exponent, NBCRYPTO_DH_BYTES, NULL);
  BIGNUM *result = real_BN_new();
  int ok = context && prime && b && e && result && (base || real_BN_set_word(b, 2) == 1) &&
           // A peer's number must lie in 2..p-1: 0, 1 and p or more would give a guessable secret.
           (!base || (!real_BN_is_zero(b) && !real_BN_is_one(b) && real_BN_cmp(b, prime) < 0)) &&
           real_BN_mod_exp(result, b, e, prime, context) == 1;
  real_BN_clear_free(e);
  real_BN_clear_free(b);
  real_BN_clear_free(prime);
  real_BN_CTX_free(context);
  if (!ok) {
    real_BN_clear_free(result);
    return NULL;
  }
  return result;
}

int nbcrypto_dh_keypair(uint8_t *private_key, uint8_t *public_key, size_t *public_length) {
  if (nbcrypto_load_error() != NULL || nbcrypto_random(private_key, NBCRYPTO_DH_BYTES) != 0) return 0;
  private_key[0] &= 0x7F;  // below p
  BIGNUM *public_number = power(NULL, 0, private_key);
  if (public_number == NULL) return 0;
  *public_length = (size_t)real_BN_bn2bin(public_number, public_key);
  real_BN_clear_free(public_number);
  return 1;
}

int nbcrypto_dh_session_key(const uint8_t *private_key, const uint8_t *peer, size_t peer_length, uint8_t *key) {
  if (nbcrypto_load_error() != NULL || peer_length == 0 || peer_length > NBCRYPTO_DH_BYTES) return 0;
  BIGNUM *shared = power(peer, peer_length, private_key);
  if (shared == NULL) return 0;
  uint8_t secret[NBCRYPTO_DH_BYTES];
  int length = (real_BN_num_bits(shared) + 7) / 8;
  int full = length == NBCRYPTO_DH_BYTES;
  if (full) real_BN_bn2bin(shared, secret);
  real_BN_clear_free(shared);
  if (!full) return 2;
  // HKDF-SHA256 (RFC 5869): extract with an all-zero salt, expand one block with no info.
  uint8_t salt[32] = {0}, prk[32], block[32], counter = 1;
  unsigned int size = 0;
  int ok = real_HMAC(real_EVP_sha256(), salt, sizeof salt, secret, sizeof secret, prk, &size) != NULL &&
           real_HMAC(real_EVP_sha256(), prk, sizeof prk, &counter, 1, block, &size) != NULL;
  if (ok) memcpy(key, block, NBCRYPTO_SESSION_KEY_BYTES);
  memset(secret, 0, sizeof secret);
  memset(prk, 0, sizeof prk);
  memset(block, 0, sizeof block);
  return ok;
}

int nbcrypto_hkdf_sha256(const uint8_t *secret, size_t length, const uint8_t *info, size_t info_length, uint8_t *key) {
  if (nbcrypto_load_error() != NULL || info_length > 256) return 0;
  uint8_t salt[32] = {0}, prk[32], input[256 + 1];
  unsigned int size = 0;
  memcpy(input, info, info_length);
  input[info_length] = 1;  // the first (only) block's counter
  int ok = real_HMAC(real_EVP_sha256(), salt, sizeof salt, secret, length, prk, &size) != NULL &&
           real_HMAC(real_EVP_sha256(), prk, sizeof prk, input, info_length + 1, key, &size) != NULL;
  memset(prk, 0, sizeof prk);
  return ok;
}

int nbcrypto_cbc(int encrypt, const uint8_t *key, const uint8_t *iv, const uint8_t *input, size_t length,
                 uint8_t *output, size_t *output_length) {
  if (nbcrypto_load_error() != NULL || length > INT_MAX - NBCRYPTO_BLOCK_BYTES) return 0;
  EVP_CIPHER_CTX *context = real_EVP_CIPHER_CTX_new();
  if (context == NULL) return 0;
  int written = 0, last = 0, ok;
  if (encrypt) {
    ok = real_EVP_EncryptInit_ex(context, real_EVP_aes_128_cbc(), NULL, key, iv) == 1 &&
         real_EVP_EncryptUpdate(context, output, &written, input, (int)length) == 1 &&
         real_EVP_EncryptFinal_ex(context, output + written, &last) == 1;
  } else {
    ok = real_EVP_DecryptInit_ex(context, real_EVP_aes_128_cbc(), NULL, key, iv) == 1 &&
         real_EVP_DecryptUpdate(context, output, &written, input, (int)length) == 1 &&
         real_EVP_DecryptFinal_ex(context, output + written, &last) == 1;
  }
  real_EVP_CIPHER_CTX_free(context);
  *output_length = ok ? (size_t)(written + last) : 0;
  return ok;
}
