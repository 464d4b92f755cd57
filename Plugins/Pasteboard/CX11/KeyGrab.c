// A key grab on the root window for global shortcuts (the shortcut plugin), with the error a
// grab another client holds gives (BadAccess) caught instead of lost: Xlib reports errors
// asynchronously to one process-wide handler, so the grab is followed by XSync under a handler of
// its own that records errors of this display and passes any other to the handler it replaced.

#include "CX11.h"

static Display *grab_display;
static int grab_error;
static XErrorHandler replaced;

static int capture(Display *d, XErrorEvent *event) {
  if (d == grab_display) {
    if (!grab_error) grab_error = event->error_code;
    return 0;
  }
  return replaced ? replaced(d, event) : 0;
}

// The lock modifiers a grab must also cover, or the shortcut would not fire with Caps Lock or
// Num Lock on: none, Lock, Mod2 (Num Lock) and both.
static const unsigned int lock_variants[] = {0, LockMask, Mod2Mask, LockMask | Mod2Mask};

int nbridge_x11_grab_key(Display *d, int keycode, unsigned int modifiers) {
  Window root = XDefaultRootWindow(d);
  grab_display = d;
  grab_error = 0;
  replaced = XSetErrorHandler(capture);
  for (unsigned i = 0; i < sizeof lock_variants / sizeof *lock_variants; i++) {
    XGrabKey(d, keycode, modifiers | lock_variants[i], root, False, GrabModeAsync, GrabModeAsync);
  }
  XSync(d, False);
  int error = grab_error;
  if (error) {
    for (unsigned i = 0; i < sizeof lock_variants / sizeof *lock_variants; i++) {
      XUngrabKey(d, keycode, modifiers | lock_variants[i], root);
    }
    XSync(d, False);
  }
  XSetErrorHandler(replaced);
  grab_display = NULL;
  return error;
}

void nbridge_x11_ungrab_key(Display *d, int keycode, unsigned int modifiers) {
  Window root = XDefaultRootWindow(d);
  for (unsigned i = 0; i < sizeof lock_variants / sizeof *lock_variants; i++) {
    XUngrabKey(d, keycode, modifiers | lock_variants[i], root);
  }
  XSync(d, False);
}

unsigned int nbridge_x11_lock_modifiers(void) { return LockMask | Mod2Mask; }
