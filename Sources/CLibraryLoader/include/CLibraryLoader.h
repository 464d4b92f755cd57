// One way to open a shared library on first use instead of linking it: the C loaders of
// SQLite, libcrypto, Xlib, gdk-pixbuf, libsoup and WebKitGTK each describe the functions they
// need as a table and call nb_library_open once.
#ifndef NBRIDGE_CLIBRARYLOADER_H
#define NBRIDGE_CLIBRARYLOADER_H

#include <stddef.h>

/// A function to look up: its name in the library, and where its address goes.
typedef struct {
  const char *name;
  void **address;
} NBLibrarySymbol;

/// Opens the first library of `libraries` (`count_libraries` sonames, tried in order) that
/// dlopen finds (RTLD_NOW | RTLD_LOCAL: never the global scope, so a forwarder cannot find
/// itself) and stores the address of every symbol of `symbols` in its `address`. Returns the
/// library's handle; or NULL with every address NULL, the library closed, and `error` (at most
/// `error_size` bytes, NUL-terminated) saying why: dlerror's text naming the library that could
/// not be opened, or "<library> lacks <symbol>".
void *nb_library_open(const char *const *libraries, size_t count_libraries, const NBLibrarySymbol *symbols,
                      size_t count_symbols, char *error, size_t error_size);

#endif
