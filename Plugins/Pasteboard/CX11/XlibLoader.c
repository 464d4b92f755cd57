// Xlib and XFixes, loaded on first use instead of linked: a run that never touches the
// X11 clipboard does not map, relocate and initialise five X libraries at start-up.
//
// Each function below has Xlib's own name and prototype and forwards to the real one,
// looked up with dlsym in the library opened here (never in the global scope, so a
// forwarder cannot find itself). Without libX11, XOpenDisplay answers NULL ("cannot open
// the display"), the handler setters do nothing, and without libXfixes,
// XFixesQueryExtension answers False. Every other function is only reached through a
// Display that XOpenDisplay returned.

#include "CX11.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#define XLIB_FUNCTIONS(F) \
  F(XOpenDisplay, Display *, (_Xconst char *name), (name)) \
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
  F(XSetIOErrorExitHandler, void, (Display *d, XIOErrorExitHandler handler, void *data), (d, handler, data)) \
  F(XSetErrorHandler, XErrorHandler, (XErrorHandler handler), (handler)) \
  F(XSetIOErrorHandler, XIOErrorHandler, (XIOErrorHandler handler), (handler))

#define XFIXES_FUNCTIONS(F) \
  F(XFixesQueryExtension, Bool, (Display *d, int *event, int *error), (d, event, error)) \
  F(XFixesSelectSelectionInput, void, (Display *d, Window w, Atom s, unsigned long mask), (d, w, s, mask))

#define POINTER(name, ret, params, args) static ret(*real_##name) params;
XLIB_FUNCTIONS(POINTER)
XFIXES_FUNCTIONS(POINTER)

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
  void *x11 = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL);
  if (x11 == NULL) return;
#define RESOLVE_X11(name, ret, params, args) real_##name = (ret(*) params)dlsym(x11, #name);
  XLIB_FUNCTIONS(RESOLVE_X11)
  void *xfixes = dlopen("libXfixes.so.3", RTLD_NOW | RTLD_LOCAL);
  if (xfixes == NULL) return;
#define RESOLVE_XFIXES(name, ret, params, args) real_##name = (ret(*) params)dlsym(xfixes, #name);
  XFIXES_FUNCTIONS(RESOLVE_XFIXES)
}

Display *XOpenDisplay(_Xconst char *name) {
  pthread_once(&loaded, load);
  return real_XOpenDisplay ? real_XOpenDisplay(name) : NULL;
}

XErrorHandler XSetErrorHandler(XErrorHandler handler) {
  pthread_once(&loaded, load);
  return real_XSetErrorHandler ? real_XSetErrorHandler(handler) : NULL;
}

XIOErrorHandler XSetIOErrorHandler(XIOErrorHandler handler) {
  pthread_once(&loaded, load);
  return real_XSetIOErrorHandler ? real_XSetIOErrorHandler(handler) : NULL;
}

Bool XFixesQueryExtension(Display *d, int *event, int *error) {
  pthread_once(&loaded, load);
  return real_XFixesQueryExtension ? real_XFixesQueryExtension(d, event, error) : False;
}

#define FORWARD(name, ret, params, args) \
  ret name params { return real_##name args; }
#define FORWARD_VOID(name, ret, params, args) \
  void name params { real_##name args; }

FORWARD(XCloseDisplay, int, (Display *d), (d))
FORWARD(XConnectionNumber, int, (Display *d), (d))
FORWARD(XDefaultRootWindow, Window, (Display *d), (d))
FORWARD(XCreateSimpleWindow, Window,
  (Display *d, Window p, int x, int y, unsigned int w, unsigned int h, unsigned int bw, unsigned long b, unsigned long bg),
  (d, p, x, y, w, h, bw, b, bg))
FORWARD(XDestroyWindow, int, (Display *d, Window w), (d, w))
FORWARD(XInternAtom, Atom, (Display *d, _Xconst char *name, Bool only), (d, name, only))
FORWARD(XSelectInput, int, (Display *d, Window w, long mask), (d, w, mask))
FORWARD(XSetSelectionOwner, int, (Display *d, Atom s, Window w, Time t), (d, s, w, t))
FORWARD(XGetSelectionOwner, Window, (Display *d, Atom s), (d, s))
FORWARD(XConvertSelection, int, (Display *d, Atom s, Atom target, Atom property, Window w, Time t),
  (d, s, target, property, w, t))
FORWARD(XGetWindowProperty, int,
  (Display *d, Window w, Atom p, long offset, long length, Bool del, Atom type, Atom *actual, int *format,
   unsigned long *items, unsigned long *after, unsigned char **data),
  (d, w, p, offset, length, del, type, actual, format, items, after, data))
FORWARD(XFree, int, (void *data), (data))
FORWARD(XFlush, int, (Display *d), (d))
FORWARD(XSync, int, (Display *d, Bool discard), (d, discard))
FORWARD(XPending, int, (Display *d), (d))
FORWARD(XNextEvent, int, (Display *d, XEvent *event), (d, event))
FORWARD_VOID(XSetIOErrorExitHandler, void, (Display *d, XIOErrorExitHandler handler, void *data), (d, handler, data))
FORWARD_VOID(XFixesSelectSelectionInput, void, (Display *d, Window w, Atom s, unsigned long mask), (d, w, s, mask))
