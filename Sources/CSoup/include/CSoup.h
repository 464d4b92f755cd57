// libsoup 3 for `fetch` in a headless run, opened with dlopen on the first request so a script
// that never fetches maps none of it. The API below is nbridge's own: one request is a handle,
// its progress arrives through one callback on the thread that iterates GLib's default main
// context (nbridge's loop), and nothing here starts a thread.
#ifndef NBRIDGE_CSOUP_H
#define NBRIDGE_CSOUP_H

#include <stddef.h>

/// What a request reports, in order: one NBH_HEAD then one NBH_BODY, or one NBH_ERROR at
/// either step. After NBH_BODY or NBH_ERROR the handle is gone. NBH_BODY comes once the body
/// has been read to its end, which needs nbh_consume unless it fits in the read-ahead.
typedef enum {
  /// `status`, `text` the reason phrase, `bytes`/`length` the response headers as one
  /// NUL-terminated UTF-8 block `name\nvalue\nname\nvalue` (NULL when there is none).
  NBH_HEAD = 0,
  /// `bytes`/`length`: the whole body, malloc'd; the callee owns it (free).
  NBH_BODY = 1,
  /// `text` GLib's message, `error_kind` what happened (nbh_error_kind).
  NBH_ERROR = 2,
} nbh_event;

/// What a failed request ran into, from the GError's domain and code.
typedef enum {
  NBH_FAILED = 0,
  NBH_CANCELLED = 1,
  NBH_CONNECTION_REFUSED = 2,
  NBH_HOST_NOT_FOUND = 3,
  NBH_BAD_CERTIFICATE = 4,
  NBH_TIMED_OUT = 5,
  NBH_BAD_URL = 6,
  NBH_CONNECTION_CLOSED = 7,
} nbh_error_kind;

/// A request's progress (see nbh_event); strings and a head's block live for the duration of the call.
typedef void (*nbh_callback)(void *data, int event, int status, const char *text, void *bytes, size_t length,
                             int error_kind);

/// Opens libsoup-3.0 and resolves every function; 0 on success, else sets *error.
int nbh_load(const char **error);

/// Starts `method url` (redirects are not followed: the caller follows them) with the request
/// headers `headers` (`name\nvalue\nname\nvalue`, or "" for none) and a copy of `body` (NULL for
/// none); returns the request's handle, or NULL (and no event) when libsoup cannot parse the URL.
/// soup_session_send_async, then reads into a buffer (sized by Content-Length when the response
/// has one) what has arrived without blocking, the rest with g_input_stream_read_async: up to
/// 1 MiB ahead, then to the end of the body once nbh_consume asks for it. A body that arrived
/// with the head comes (NBH_BODY) in the same turn of the loop as NBH_HEAD.
void *nbh_send(const char *method, const char *url, const char *headers, const void *body, size_t length,
               const char *user_agent, nbh_callback callback, void *data);

/// How many responses whose bodies wait unread may hold their connections at once; the session
/// allows more connections (64 per host) so that they never block a new request.
enum { NBH_UNREAD_LIMIT = 32 };

/// Reads the body to its end (NBH_BODY then comes with all of it); until this is called, reading
/// stops 1 MiB ahead, so the server's writes stall.
void nbh_consume(void *request);

/// g_cancellable_cancel: the request ends soon with NBH_ERROR / NBH_CANCELLED, on a later turn of
/// the loop; the body's stream is closed at once when no read is in flight.
void nbh_cancel(void *request);

/// Decodes a whole gzip (`gzip` 1) or deflate (zlib's wrapper or raw) body with zlib, opened on
/// first use: the decoded bytes, malloc'd (the caller frees them), and their count in
/// *out_length; NULL when zlib cannot be opened or the data does not decode.
void *nbh_inflate(const void *data, size_t length, int gzip, size_t *out_length);

#endif
