// The gzip and deflate decoding of a response body that the plain HTTP path (PlainHTTPRequest)
// does itself, as libsoup's content decoder does for its requests: zlib opened with dlopen on the
// first compressed body. z_stream is declared here by hand (zlib's ABI, stable since 1.0).

#include "CSoup.h"

#include <CLibraryLoader.h>
#include <stdlib.h>

typedef struct {
  const unsigned char *next_in;
  unsigned avail_in;
  unsigned long total_in;
  unsigned char *next_out;
  unsigned avail_out;
  unsigned long total_out;
  const char *msg;
  void *state;
  void *zalloc, *zfree, *opaque;
  int data_type;
  unsigned long adler, reserved;
} z_stream;

enum { Z_OK = 0, Z_STREAM_END = 1, Z_BUF_ERROR = -5, Z_NO_FLUSH = 0 };

static int (*inflateInit2_)(z_stream *stream, int window_bits, const char *version, int stream_size);
static int (*inflate_)(z_stream *stream, int flush);
static int (*inflateEnd_)(z_stream *stream);

static int load(void) {
  static void *handle;
  if (handle) return 1;
  static const char *const libraries[] = {"libz.so.1"};
  static const NBLibrarySymbol symbols[] = {
    {"inflateInit2_", (void **)&inflateInit2_}, {"inflate", (void **)&inflate_}, {"inflateEnd", (void **)&inflateEnd_}};
  char failure[256];
  handle = nb_library_open(libraries, 1, symbols, 3, failure, sizeof failure);
  return handle != NULL;
}

// One pass with `window_bits`; NULL when the data does not decode that way.
static void *decode(const void *data, size_t length, int window_bits, size_t *out_length) {
  z_stream stream = {0};
  stream.next_in = data;
  stream.avail_in = (unsigned)length;
  if (inflateInit2_(&stream, window_bits, "1.2.13", (int)sizeof stream) != Z_OK) return NULL;
  size_t capacity = length * 4 + 64, used = 0;
  unsigned char *out = malloc(capacity);
  int status = Z_OK;
  while (out && status == Z_OK) {
    if (used == capacity) {
      unsigned char *grown = realloc(out, capacity * 2);
      if (!grown) break;
      out = grown;
      capacity *= 2;
    }
    stream.next_out = out + used;
    stream.avail_out = (unsigned)(capacity - used);
    status = inflate_(&stream, Z_NO_FLUSH);
    used = capacity - stream.avail_out;
    if (status == Z_BUF_ERROR && stream.avail_out == 0) status = Z_OK;
  }
  inflateEnd_(&stream);
  // A stream cut short keeps what decoded (as libsoup's decoder does); a bad one is refused.
  if (status != Z_STREAM_END && !(status == Z_BUF_ERROR && used > 0)) {
    free(out);
    return NULL;
  }
  *out_length = used;
  return out;
}

void *nbh_inflate(const void *data, size_t length, int gzip, size_t *out_length) {
  if (length > 0xFFFFFFFFu || !load()) return NULL;
  if (length == 0) {
    *out_length = 0;
    return malloc(1);
  }
  if (gzip) return decode(data, length, 15 + 16, out_length);
  // deflate: zlib's wrapper as the standard says, else the raw stream some servers send.
  void *out = decode(data, length, 15, out_length);
  return out ? out : decode(data, length, -15, out_length);
}
