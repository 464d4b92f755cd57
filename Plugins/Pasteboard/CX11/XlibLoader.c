// Xlib and XFixes, loaded on first use instead of linked: a run that never touches the
// X11 clipboard does not map, relocate and initialise five X libraries at start-up.
//
// Each function below has Xlib's own name and prototype and forwards to the real one,
// looked up in the library opened here (nb_library_open, CLibraryLoader). The entry points
// a backend calls first open the libraries and answer a failure when they are missing or
// lack a function: XOpenDisplay NULL ("cannot open the display"), the handler setters NULL,
// XFixesQueryExtension False. Every other function is only reached through a Display that
// XOpenDisplay returned.

#include "CX11.h"

#include <CLibraryLoader.h>
#include <pthread.h>
#include <stddef.h>

// F(name, return type, parameters, arguments, value when the library is missing)
#define X11_ENTRY_POINTS(F) \
  F(XOpenDisplay, Display *, (_Xconst char *name), (name), NULL) \
  F(XSetErrorHandler, XErrorHandler, (XErrorHandler handler), (handler), NULL) \
  F(XSetIOErrorHandler, XIOErrorHandler, (XIOErrorHandler handler), (handler), NULL)
#define XFIXES_ENTRY_POINTS(F) \
  F(XFixesQueryExtension, Bool, (Display *d, int *event, int *error), (d, event, error), False)

// F(name, return type, parameters, arguments)
#define X11_FUNCTIONS(F) \
  F(XCloseDisplay, int, (Display *d), (d)) \
  F(XConnectionNumber, int, (Display *d), (d)) \
  F(XDefaultRootWindow, Window, (Display *d), (d)) \
  F(XCreateSimpleWindow, Window, \
    (Display *d, Window p, int x, int y, unsigned int w, unsigned int h, unsigned int bw, unsigned long b, unsigned long bg), \
    (d, p, x, y, w, h, bw, b, bg)) \
  F(XDestroyWindow, int, (Display *d, Window w), (d, w)) \
  F(XInternAtom, Atom, (Display *d, _Xconst char *name, Bool only), (d, name, only)) \
  F(XSelectInput, int, (Display *d, Window w, long mask), (d, w, mask)) \
  F(XSetSelectionOwner, int, (Display *d, Atom s, Window w, Time t), (d, s, w, t)) \
  F(XGetSelectionOwner, Window, (Display *d, Atom s), (d, s)) \
  F(XConvertSelection, int, (Display *d, Atom s, Atom target, Atom property, Window w, Time t), \
    (d, s, target, property, w, t)) \
  F(XGetWindowProperty, int, \
    (Display *d, Window w, Atom p, long offset, long length, Bool del, Atom type, Atom *actual, int *format, \
     unsigned long *items, unsigned long *after, unsigned char **data), \
    (d, w, p, offset, length, del, type, actual, format, items, after, data)) \
  F(XFree, int, (void *data), (data)) \
  F(XFlush, int, (Display *d), (d)) \
  F(XSync, int, (Display *d, Bool discard), (d, discard)) \
  F(XPending, int, (Display *d), (d)) \
  F(XNextEvent, int, (Display *d, XEvent *event), (d, event)) \
  F(XGrabKey, int, (Display *d, int key, unsigned int mods, Window w, Bool owner, int pointer, int keyboard), \
    (d, key, mods, w, owner, pointer, keyboard)) \
  F(XUngrabKey, int, (Display *d, int key, unsigned int mods, Window w), (d, key, mods, w)) \
  F(XKeysymToKeycode, KeyCode, (Display *d, KeySym keysym), (d, keysym)) \
  F(XStringToKeysym, KeySym, (_Xconst char *name), (name))
#define X11_VOID_FUNCTIONS(F) \
  F(XSetIOErrorExitHandler, void, (Display *d, XIOErrorExitHandler handler, void *data), (d, handler, data))
#define XFIXES_VOID_FUNCTIONS(F) \
  F(XFixesSelectSelectionInput, void, (Display *d, Window w, Atom s, unsigned long mask), (d, w, s, mask))

#define POINTER(name, ret, params, ...) static ret(*real_##name) params;
X11_ENTRY_POINTS(POINTER)
XFIXES_ENTRY_POINTS(POINTER)
X11_FUNCTIONS(POINTER)
X11_VOID_FUNCTIONS(POINTER)
XFIXES_VOID_FUNCTIONS(POINTER)

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
  char error[256];
#define SYMBOL(name, ...) {#name, (void **)&real_##name},
  static const char *const x11[] = {"libX11.so.6"};
  static const NBLibrarySymbol x11_symbols[] = {X11_ENTRY_POINTS(SYMBOL) X11_FUNCTIONS(SYMBOL) X11_VOID_FUNCTIONS(SYMBOL)};
  if (!nb_library_open(x11, 1, x11_symbols, sizeof x11_symbols / sizeof *x11_symbols, error, sizeof error)) return;
  static const char *const xfixes[] = {"libXfixes.so.3"};
  static const NBLibrarySymbol xfixes_symbols[] = {XFIXES_ENTRY_POINTS(SYMBOL) XFIXES_VOID_FUNCTIONS(SYMBOL)};
  nb_library_open(xfixes, 1, xfixes_symbols, sizeof xfixes_symbols / sizeof *xfixes_symbols, error, sizeof error);
}

#define ENTRY(name, ret, params, args, missing) \
  ret name params { \
    pthread_once(&loaded, load); \
    return real_##name ? real_##name args : missing; \
  }
#define FORWARD(name, ret, params, args) \
  ret name params { return real_##name args; }
#define FORWARD_VOID(name, ret, params, args) \
  void name params { real_##name args; }

X11_ENTRY_POINTS(ENTRY)
XFIXES_ENTRY_POINTS(ENTRY)
X11_FUNCTIONS(FORWARD)
X11_VOID_FUNCTIONS(FORWARD_VOID)
XFIXES_VOID_FUNCTIONS(FORWARD_VOID)
