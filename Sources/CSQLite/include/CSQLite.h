// SQLite's own header, for its types and constants. The library itself is not linked: the
// functions nbridge calls are forwarders (SQLiteLoader.c) that open libsqlite3 on first use,
// so a run that stores nothing does not map and relocate it at start-up.
#ifndef NBRIDGE_CSQLITE_H
#define NBRIDGE_CSQLITE_H

#include <sqlite3.h>

/// Why libsqlite3 could not be opened (dlerror's text), or NULL when it is open or not tried yet.
const char *nbsqlite_load_error(void);

#endif
