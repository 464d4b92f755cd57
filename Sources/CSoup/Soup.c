// libsoup 3 and the bits of GIO and GLib a request uses, opened with dlopen by nbh_load.
// Prototypes are written here by hand (no libsoup headers are needed to build nbridge): every
// pointer is opaque, gboolean is int. Each request lives in one `request` record, freed after
// its last event.

#include "CSoup.h"

#include <CLibraryLoader.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef struct {
  uint32_t domain;
  int code;
  char *message;
} GError;
typedef struct {
  void *dummy[3];
} SoupMessageHeadersIter;
typedef void (*GAsyncReadyCallback)(void *source, void *result, void *data);

// F(name, return type, parameters)
#define FUNCTIONS(F) \
  F(soup_session_new_with_options, void *, (const char *name, ...)) \
  F(soup_session_set_user_agent, void, (void *session, const char *agent)) \
  F(soup_session_send_async, void, \
    (void *session, void *message, int priority, void *cancellable, GAsyncReadyCallback callback, void *data)) \
  F(soup_session_send_finish, void *, (void *session, void *result, GError **error)) \
  F(soup_message_new, void *, (const char *method, const char *uri)) \
  F(soup_message_add_flags, void, (void *message, unsigned flags)) \
  F(soup_message_get_request_headers, void *, (void *message)) \
  F(soup_message_get_response_headers, void *, (void *message)) \
  F(soup_message_get_status, unsigned, (void *message)) \
  F(soup_message_get_reason_phrase, const char *, (void *message)) \
  F(soup_message_set_request_body_from_bytes, void, (void *message, const char *type, void *bytes)) \
  F(soup_message_headers_append, void, (void *headers, const char *name, const char *value)) \
  F(soup_message_headers_remove, void, (void *headers, const char *name)) \
  F(soup_message_headers_iter_init, void, (SoupMessageHeadersIter * iter, void *headers)) \
  F(soup_message_headers_iter_next, int, (SoupMessageHeadersIter * iter, const char **name, const char **value)) \
  F(soup_message_headers_get_encoding, int, (void *headers)) \
  F(soup_message_headers_get_content_length, int64_t, (void *headers)) \
  F(g_input_stream_read_async, void, \
    (void *stream, void *buffer, size_t count, int priority, void *cancellable, GAsyncReadyCallback callback, \
     void *data)) \
  F(g_input_stream_read_finish, ssize_t, (void *stream, void *result, GError **error)) \
  F(g_pollable_input_stream_get_type, size_t, (void)) \
  F(g_pollable_input_stream_can_poll, int, (void *stream)) \
  F(g_pollable_input_stream_read_nonblocking, ssize_t, \
    (void *stream, void *buffer, size_t count, void *cancellable, GError **error)) \
  F(g_type_check_instance_is_a, int, (void *instance, size_t type)) \
  F(g_cancellable_new, void *, (void)) \
  F(g_cancellable_cancel, void, (void *cancellable)) \
  F(g_idle_add, unsigned, (int (*function)(void *data), void *data)) \
  F(g_bytes_new, void *, (const void *data, size_t size)) \
  F(g_bytes_unref, void, (void *bytes)) \
  F(g_object_unref, void, (void *object)) \
  F(g_error_free, void, (GError * error)) \
  F(g_io_error_quark, uint32_t, (void)) \
  F(g_tls_error_quark, uint32_t, (void)) \
  F(g_resolver_error_quark, uint32_t, (void))

#define POINTER(name, ret, params) static ret(*name##_) params;
FUNCTIONS(POINTER)

static void *library;
static void *session;
static char *session_agent;

int nbh_load(const char **error) {
  if (library) return 0;
  static char failure[256];
  static const char *const libraries[] = {"libsoup-3.0.so.0"};
#define SYMBOL(name, ret, params) {#name, (void **)&name##_},
  static const NBLibrarySymbol symbols[] = {FUNCTIONS(SYMBOL)};
  void *handle = nb_library_open(libraries, 1, symbols, sizeof symbols / sizeof *symbols, failure, sizeof failure);
  if (!handle) {
    *error = failure;
    return -1;
  }
  library = handle;
  return 0;
}

// SOUP_MESSAGE_NO_REDIRECT; SOUP_ENCODING_CONTENT_LENGTH. A body of unknown length starts in a
// FIRST-byte buffer; a Content-Length above HINT_LIMIT is not trusted for the first allocation.
// Until the body is consumed (nbh_consume), at most READ_AHEAD bytes of it are read: the rest
// waits in the kernel and the server, whose writes stall.
enum {
  NO_REDIRECT = 1 << 1,
  ENCODING_CONTENT_LENGTH = 2,
  FIRST = 16 * 1024,
  HINT_LIMIT = 8 * 1024 * 1024,
  READ_AHEAD = 1024 * 1024,
};

typedef struct {
  void *message;
  void *stream;
  void *cancellable;
  unsigned char *body;
  size_t length, capacity;
  nbh_callback callback;
  void *data;
  // Whether the body is wanted whole (nbh_consume); whether reading waits for that (no read in
  // flight); whether nbh_cancel was called (a read that still brings data ends there: GIO may
  // complete a read from buffered data despite the cancellable); whether the stream can be read
  // without blocking (what has arrived is taken at once, without a GTask and a turn of the loop).
  int consuming, paused, cancelled, pollable;
} request;

static void finish(request *r) {
  if (r->stream) g_object_unref_(r->stream);
  g_object_unref_(r->message);
  g_object_unref_(r->cancellable);
  free(r->body);
  free(r);
}

static int kind_of(const GError *error) {
  if (error->domain == g_io_error_quark_()) {
    switch (error->code) {
      case 19: return NBH_CANCELLED;
      case 24: return NBH_TIMED_OUT;
      case 28: return NBH_HOST_NOT_FOUND;
      case 39: return NBH_CONNECTION_REFUSED;
      case 44: return NBH_CONNECTION_CLOSED;
    }
  }
  if (error->domain == g_resolver_error_quark_()) return NBH_HOST_NOT_FOUND;
  if (error->domain == g_tls_error_quark_()) return NBH_BAD_CERTIFICATE;
  return NBH_FAILED;
}

static void fail(request *r, GError *error) {
  r->callback(r->data, NBH_ERROR, 0, error->message, NULL, 0, kind_of(error));
  g_error_free_(error);
  finish(r);
}

static void read_more(request *r, int now);

static void report_cancelled(request *r) {
  r->callback(r->data, NBH_ERROR, 0, "Operation was cancelled", NULL, 0, NBH_CANCELLED);
  finish(r);
}

// The end of the body: the whole of it goes to the callback, and the request is gone.
static void deliver_body(request *r) {
  unsigned char *body = r->body;
  size_t length = r->length;
  r->body = NULL;
  r->callback(r->data, NBH_BODY, 0, NULL, body, length, 0);
  finish(r);
}

static void did_read(void *stream, void *result, void *data) {
  request *r = data;
  GError *error = NULL;
  ssize_t n = g_input_stream_read_finish_(stream, result, &error);
  if (r->cancelled) {
    if (error) g_error_free_(error);
    return report_cancelled(r);
  }
  if (n < 0) return fail(r, error);
  if (n == 0) return deliver_body(r);
  r->length += (size_t)n;
  read_more(r, 1);
}

// G_IO_ERROR_WOULD_BLOCK: nothing more has arrived yet. At most READS_AT_ONCE reads without
// blocking in one go, so that a fast server's large body still lets the loop turn between them.
enum { WOULD_BLOCK = 27, READS_AT_ONCE = 16 };

// How much the next read may bring: the buffer's free end, short of READ_AHEAD until consumed.
static size_t room(const request *r) {
  size_t count = r->capacity - r->length;
  return !r->consuming && count > READ_AHEAD - r->length ? READ_AHEAD - r->length : count;
}

// Reads into the free end of the buffer, doubling it when full (the read that finds the end
// needs room too); before nbh_consume, only up to READ_AHEAD bytes, then it pauses. With `now`
// (called from the loop, never from inside an nbh_ function, so events may come at once), what
// has arrived is read without blocking, the end of the body included: a small response that
// came whole with its head is done in the same turn; the rest is read asynchronously.
static void read_more(request *r, int now) {
  for (int reads = 0;; reads++) {
    if (!r->consuming && r->length >= READ_AHEAD) {
      r->paused = 1;
      return;
    }
    if (r->capacity == r->length) {
      size_t capacity = r->capacity ? r->capacity * 2 : FIRST;
      unsigned char *grown = realloc(r->body, capacity);
      if (!grown) {
        r->callback(r->data, NBH_ERROR, 0, "out of memory reading the body", NULL, 0, NBH_FAILED);
        return finish(r);
      }
      r->body = grown;
      r->capacity = capacity;
    }
    if (!now || !r->pollable || r->cancelled || reads == READS_AT_ONCE) break;
    GError *error = NULL;
    ssize_t n =
      g_pollable_input_stream_read_nonblocking_(r->stream, r->body + r->length, room(r), r->cancellable, &error);
    if (n == 0) return deliver_body(r);
    if (n > 0) {
      r->length += (size_t)n;
      continue;
    }
    if (error->domain != g_io_error_quark_() || error->code != WOULD_BLOCK) return fail(r, error);
    g_error_free_(error);
    break;
  }
  g_input_stream_read_async_(r->stream, r->body + r->length, room(r), 0, r->cancellable, did_read, r);
}

// The response headers as one NUL-terminated `name\nvalue\n...` block of UTF-8 (libsoup's header
// values are UTF-8, invalid bytes replaced), malloc'd (NULL when out of memory).
static char *header_block(void *headers, size_t *length) {
  SoupMessageHeadersIter iter;
  const char *name, *value;
  size_t size = 0;
  soup_message_headers_iter_init_(&iter, headers);
  while (soup_message_headers_iter_next_(&iter, &name, &value)) size += strlen(name) + strlen(value) + 2;
  char *block = malloc(size + 1), *end = block;
  if (!block) return NULL;
  soup_message_headers_iter_init_(&iter, headers);
  while (soup_message_headers_iter_next_(&iter, &name, &value)) {
    if (end != block) *end++ = '\n';
    size_t n = strlen(name), v = strlen(value);
    memcpy(end, name, n);
    end[n] = '\n';
    memcpy(end + n + 1, value, v);
    end += n + 1 + v;
  }
  *end = '\0';
  *length = (size_t)(end - block);
  return block;
}

static void did_send(void *source, void *result, void *data) {
  request *r = data;
  GError *error = NULL;
  r->stream = soup_session_send_finish_(source, result, &error);
  if (!r->stream) return fail(r, error);
  void *headers = soup_message_get_response_headers_(r->message);
  size_t length = 0;
  char *block = header_block(headers, &length);
  const char *reason = soup_message_get_reason_phrase_(r->message);
  r->callback(r->data, NBH_HEAD, (int)soup_message_get_status_(r->message), reason ? reason : "", block, length, 0);
  free(block);
  r->pollable = g_type_check_instance_is_a_(r->stream, g_pollable_input_stream_get_type_()) &&
                g_pollable_input_stream_can_poll_(r->stream);
  // A body of known length is read into one buffer of that size (plus the byte the last read needs).
  if (soup_message_headers_get_encoding_(headers) == ENCODING_CONTENT_LENGTH) {
    int64_t expected = soup_message_headers_get_content_length_(headers);
    if (expected >= 0 && expected < HINT_LIMIT) {
      r->body = malloc((size_t)expected + 1);
      r->capacity = r->body ? (size_t)expected + 1 : 0;
    }
  }
  read_more(r, 1);
}

void *nbh_send(const char *method, const char *url, const char *headers, const void *body, size_t length,
               const char *user_agent, nbh_callback callback, void *data) {
  void *message = soup_message_new_(method, url);
  if (!message) return NULL;
  // libsoup's 2 connections per host would let two unread bodies (which hold their connections)
  // block every later request to the host: the runtime discards unread bodies beyond
  // NBH_UNREAD_LIMIT, below these limits.
  if (!session) session = soup_session_new_with_options_("max-conns", 256, "max-conns-per-host", 64, NULL);
  if (!session_agent || strcmp(session_agent, user_agent) != 0) {
    free(session_agent);
    session_agent = strdup(user_agent);
    soup_session_set_user_agent_(session, user_agent);
  }
  soup_message_add_flags_(message, NO_REDIRECT);
  void *request_headers = soup_message_get_request_headers_(message);
  // The block is split in a copy: each name and value NUL-terminated in place.
  char *copy = *headers ? strdup(headers) : NULL;
  for (char *cursor = copy; cursor;) {
    char *name = cursor, *value = strchr(name, '\n');
    if (!value) break;
    *value++ = '\0';
    char *next = strchr(value, '\n');
    if (next) *next++ = '\0';
    soup_message_headers_append_(request_headers, name, value);
    cursor = next;
  }
  free(copy);
  if (body) {
    void *bytes = g_bytes_new_(body, length);
    soup_message_set_request_body_from_bytes_(message, NULL, bytes);
    g_bytes_unref_(bytes);
  }
  request *r = calloc(1, sizeof *r);
  r->message = message;
  r->cancellable = g_cancellable_new_();
  r->callback = callback;
  r->data = data;
  soup_session_send_async_(session, message, 0, r->cancellable, did_send, r);
  return r;
}

void nbh_consume(void *handle) {
  request *r = handle;
  if (r->consuming || r->cancelled) return;
  r->consuming = 1;
  if (r->paused) {
    r->paused = 0;
    read_more(r, 0);
  }
}

// A paused request cancelled: reports NBH_CANCELLED from the loop, as a cancelled read would.
static int report_cancelled_later(void *data) {
  report_cancelled(data);
  return 0;
}

void nbh_cancel(void *handle) {
  request *r = handle;
  if (r->cancelled) return;
  r->cancelled = 1;
  g_cancellable_cancel_(r->cancellable);
  if (!r->paused) return;
  // No read is in flight to fail: close the body now (the connection with it) and free what
  // was read ahead; the event follows on the next turn, never inside the caller.
  r->paused = 0;
  g_object_unref_(r->stream);
  r->stream = NULL;
  free(r->body);
  r->body = NULL;
  g_idle_add_(report_cancelled_later, r);
}
