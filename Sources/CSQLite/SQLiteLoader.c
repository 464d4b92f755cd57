// libsqlite3, opened on first use instead of linked: it is about 1,600 symbol bindings and
// half a millisecond of every start, and most runs never store anything.
//
// Each function below has SQLite's own name and prototype and forwards to the real one,
// looked up in the library opened here (nb_library_open, CLibraryLoader). sqlite3_open_v2 and
// sqlite3_open open the library and, when it is missing or lacks a function, answer
// SQLITE_CANTOPEN with no connection (nbsqlite_load_error says why); the other functions are
// only reached through a connection or statement those returned, but for sqlite3_close_v2,
// sqlite3_close and sqlite3_errmsg, which accept NULL.

#include "CSQLite.h"

#include <CLibraryLoader.h>
#include <pthread.h>
#include <stddef.h>

// F(name, return type, parameters, arguments)
#define SQLITE_FUNCTIONS(F) \
  F(sqlite3_busy_handler, int, (sqlite3 *db, int (*handler)(void *, int), void *context), (db, handler, context)) \
  F(sqlite3_extended_result_codes, int, (sqlite3 *db, int on), (db, on)) \
  F(sqlite3_extended_errcode, int, (sqlite3 *db), (db)) \
  F(sqlite3_exec, int, \
    (sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *data, char **error), \
    (db, sql, callback, data, error)) \
  F(sqlite3_prepare_v2, int, (sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail), \
    (db, sql, bytes, statement, tail)) \
  F(sqlite3_prepare_v3, int, \
    (sqlite3 *db, const char *sql, int bytes, unsigned int flags, sqlite3_stmt **statement, const char **tail), \
    (db, sql, bytes, flags, statement, tail)) \
  F(sqlite3_step, int, (sqlite3_stmt *statement), (statement)) \
  F(sqlite3_reset, int, (sqlite3_stmt *statement), (statement)) \
  F(sqlite3_finalize, int, (sqlite3_stmt *statement), (statement)) \
  F(sqlite3_clear_bindings, int, (sqlite3_stmt *statement), (statement)) \
  F(sqlite3_bind_text, int, (sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *)), \
    (statement, index, text, bytes, destructor)) \
  F(sqlite3_bind_blob, int, \
    (sqlite3_stmt *statement, int index, const void *blob, int bytes, void (*destructor)(void *)), \
    (statement, index, blob, bytes, destructor)) \
  F(sqlite3_column_blob, const void *, (sqlite3_stmt *statement, int column), (statement, column)) \
  F(sqlite3_column_bytes, int, (sqlite3_stmt *statement, int column), (statement, column)) \
  F(sqlite3_column_text, const unsigned char *, (sqlite3_stmt *statement, int column), (statement, column)) \
  F(sqlite3_wal_hook, void *, (sqlite3 *db, int (*hook)(void *, sqlite3 *, const char *, int), void *data), \
    (db, hook, data))
// The ones that accept what a failed open leaves: F(name, return type, parameters, arguments, answer then)
#define SQLITE_NULL_SAFE(F) \
  F(sqlite3_open_v2, int, (const char *path, sqlite3 **db, int flags, const char *vfs), (path, db, flags, vfs), \
    (*db = NULL, SQLITE_CANTOPEN)) \
  F(sqlite3_open, int, (const char *path, sqlite3 **db), (path, db), (*db = NULL, SQLITE_CANTOPEN)) \
  F(sqlite3_close_v2, int, (sqlite3 *db), (db), SQLITE_OK) \
  F(sqlite3_close, int, (sqlite3 *db), (db), SQLITE_OK) \
  F(sqlite3_errmsg, const char *, (sqlite3 *db), (db), "libsqlite3 could not be opened")

#define POINTER(name, ret, params, ...) static ret(*real_##name) params;
SQLITE_FUNCTIONS(POINTER)
SQLITE_NULL_SAFE(POINTER)

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static char load_error[256];

static void load(void) {
  static const char *const libraries[] = {"libsqlite3.so.0"};
#define SYMBOL(name, ...) {#name, (void **)&real_##name},
  static const NBLibrarySymbol symbols[] = {SQLITE_FUNCTIONS(SYMBOL) SQLITE_NULL_SAFE(SYMBOL)};
  nb_library_open(libraries, 1, symbols, sizeof symbols / sizeof *symbols, load_error, sizeof load_error);
}

const char *nbsqlite_load_error(void) { return load_error[0] ? load_error : NULL; }

#define FORWARD(name, ret, params, args) \
  ret name params { return real_##name args; }
#define NULL_SAFE(name, ret, params, args, missing) \
  ret name params { \
    pthread_once(&loaded, load); \
    return real_##name ? real_##name args : (missing); \
  }

SQLITE_FUNCTIONS(FORWARD)
SQLITE_NULL_SAFE(NULL_SAFE)
