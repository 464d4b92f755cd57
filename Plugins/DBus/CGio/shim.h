#include <gio/gio.h>

// From <gio/gunixfdlist.h>, which lies outside gobject-2.0's include path (gio-unix-2.0's flags
// carry -pthread, which SwiftPM refuses): the two calls that pass a file descriptor with a D-Bus
// call (the Secret portal's RetrieveSecret). GUnixFDList itself is declared in <gio/giotypes.h>.
GUnixFDList *g_unix_fd_list_new(void);
gint g_unix_fd_list_append(GUnixFDList *list, gint fd, GError **error);
