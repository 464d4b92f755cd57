// libsoup 3 and the bits of GIO and GLib a request uses, opened with dlopen by nbh_load.
// Prototypes are written here by hand (no libsoup headers are needed to build nbridge): every
// pointer is opaque, gboolean is int. Each request lives in one `request` record, freed after
// its last event.

#include "CSoup.h"

#include <dlfcn.h>
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
  F(soup_session_new, void *, (void)) \
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
  F(g_input_stream_read_async, void, \
    (void *stream, void *buffer, size_t count, int priority, void *cancellable, GAsyncReadyCallback callback, \
     void *data)) \
  F(g_input_stream_read_finish, ssize_t, (void *stream, void *result, GError **error)) \
  F(g_cancellable_new, void *, (void)) \
  F(g_cancellable_cancel, void, (void *cancellable)) \
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

int nbh_load(const char **error) {
  if (library) return 0;
  void *handle = dlopen("libsoup-3.0.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    *error = dlerror();
    return -1;
  }
#define RESOLVE(name, ret, params) \
  if (!(*(void **)&name##_ = dlsym(handle, #name))) { \
    *error = "libsoup-3.0 lacks " #name; \
    return -1; \
  }
  FUNCTIONS(RESOLVE)
  library = handle;
  return 0;
}

enum { NO_REDIRECT = 1 << 1, CHUNK = 64 * 1024 };

typedef struct {
  void *message;
  void *stream;
  void *cancellable;
  unsigned char *body;
  size_t length, capacity;
  nbh_callback callback;
  void *data;
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
  r->callback(r->data, NBH_ERROR, 0, error->message, NULL, NULL, 0, NULL, 0, kind_of(error));
  g_error_free_(error);
  finish(r);
}

static void read_more(request *r);

static void did_read(void *stream, void *result, void *data) {
  request *r = data;
  GError *error = NULL;
  ssize_t n = g_input_stream_read_finish_(stream, result, &error);
  if (n < 0) return fail(r, error);
  if (n == 0) {
    unsigned char *body = r->body;
    size_t length = r->length;
    r->body = NULL;
    r->callback(r->data, NBH_BODY, 0, NULL, NULL, NULL, 0, body, length, 0);
    return finish(r);
  }
  r->length += (size_t)n;
  read_more(r);
}

static void read_more(request *r) {
  if (r->capacity - r->length < CHUNK) {
    size_t capacity = r->capacity ? r->capacity * 2 : CHUNK * 2;
    unsigned char *grown = realloc(r->body, capacity);
    if (!grown) {
      GError error = {g_io_error_quark_(), 0, "out of memory reading the body"};
      r->callback(r->data, NBH_ERROR, 0, error.message, NULL, NULL, 0, NULL, 0, NBH_FAILED);
      return finish(r);
    }
    r->body = grown;
    r->capacity = capacity;
  }
  g_input_stream_read_async_(r->stream, r->body + r->length, r->capacity - r->length, 0, r->cancellable, did_read, r);
}

static void did_send(void *source, void *result, void *data) {
  request *r = data;
  GError *error = NULL;
  r->stream = soup_session_send_finish_(source, result, &error);
  if (!r->stream) return fail(r, error);
  void *headers = soup_message_get_response_headers_(r->message);
  size_t count = 0, capacity = 16;
  const char **names = malloc(capacity * sizeof *names), **values = malloc(capacity * sizeof *values);
  SoupMessageHeadersIter iter;
  soup_message_headers_iter_init_(&iter, headers);
  const char *name, *value;
  while (names && values && soup_message_headers_iter_next_(&iter, &name, &value)) {
    if (count == capacity) {
      capacity *= 2;
      const char **n = realloc(names, capacity * sizeof *names), **v = realloc(values, capacity * sizeof *values);
      if (n) names = n;
      if (v) values = v;
      if (!n || !v) break;
    }
    names[count] = name;
    values[count] = value;
    count++;
  }
  const char *reason = soup_message_get_reason_phrase_(r->message);
  r->callback(r->data, NBH_HEAD, (int)soup_message_get_status_(r->message), reason ? reason : "", names, values, count,
              NULL, 0, 0);
  free(names);
  free(values);
  read_more(r);
}

void *nbh_send(const char *method, const char *url, const char *const *names, const char *const *values, size_t count,
               const void *body, size_t length, const char *user_agent, nbh_callback callback, void *data) {
  void *message = soup_message_new_(method, url);
  if (!message) return NULL;
  if (!session) session = soup_session_new_();
  soup_session_set_user_agent_(session, user_agent);
  soup_message_add_flags_(message, NO_REDIRECT);
  void *headers = soup_message_get_request_headers_(message);
  for (size_t i = 0; i < count; i++) soup_message_headers_append_(headers, names[i], values[i]);
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

void nbh_cancel(void *handle) {
  request *r = handle;
  g_cancellable_cancel_(r->cancellable);
}
