#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xfixes.h>
#include <spawn.h>

// glibc (2.34+) declares this only under _GNU_SOURCE, which the Glibc module is built
// without. The pasteboard's helpers (xclip, wl-copy) outlive the script, so they must not
// keep any descriptor of ours open: close everything above stderr in the child.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
