// An image file read into ARGB32 pixels by gdk-pixbuf, which is opened on first use (a run
// without a tray icon never maps it).
#ifndef NBRIDGE_CPIXBUF_H
#define NBRIDGE_CPIXBUF_H

#include <stdint.h>

// What nbridge_pixbuf_load hands back: the pixels, or why not.
typedef struct {
  int width;
  int height;
  // width * height * 4 bytes, each pixel A, R, G, B (ARGB32 in network byte order, as
  // StatusNotifierItem's IconPixmap wants it); free with nbridge_pixbuf_free.
  uint8_t *argb;
  // Why the file could not be read (gdk-pixbuf's message, or that gdk-pixbuf is missing);
  // free with nbridge_pixbuf_free.
  char *error;
} NBridgePixbuf;

// Reads the image at `path` (any format gdk-pixbuf reads: PNG, SVG, ...), scaled down to fit
// `max_side` pixels on each side when larger.
NBridgePixbuf nbridge_pixbuf_load(const char *path, int max_side);

// Frees what nbridge_pixbuf_load allocated.
void nbridge_pixbuf_free(NBridgePixbuf *image);

#endif
