#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xfixes.h>

// Grabs `keycode` with `modifiers` (and each Caps Lock / Num Lock variant) on the root window;
// 0, or the X error code it failed with (BadAccess: another client holds it), having undone it.
int nbridge_x11_grab_key(Display *d, int keycode, unsigned int modifiers);
// Releases what nbridge_x11_grab_key took.
void nbridge_x11_ungrab_key(Display *d, int keycode, unsigned int modifiers);
// The modifier bits a grab covers by itself (Lock, Mod2): left out when matching a key press.
unsigned int nbridge_x11_lock_modifiers(void);
