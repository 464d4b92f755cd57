// AES-256-GCM through OpenSSL's EVP interface, with libcrypto.so.3 opened on first use.
// Only the handful of EVP functions below are looked up (dlsym in the library opened here).

#include "CCrypto.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <openssl/evp.h>
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
  F(EVP_DecryptFinal_ex, int, (EVP_CIPHER_CTX *, unsigned char *, int *))

#define POINTER(name, ret, params) static ret(*real_##name) params;
CRYPTO_FUNCTIONS(POINTER)

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static const char *load_error;

static void load(void) {
  void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    load_error = dlerror();
    return;
  }
#define RESOLVE(name, ret, params) \
  real_##name = (ret(*) params)dlsym(library, #name); \
  if (real_##name == NULL) load_error = "libcrypto.so.3 lacks " #name;
  CRYPTO_FUNCTIONS(RESOLVE)
}

const char *nbcrypto_load_error(void) {
  pthread_once(&loaded, load);
  return load_error;
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
