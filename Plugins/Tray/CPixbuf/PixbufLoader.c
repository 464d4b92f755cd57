// gdk-pixbuf, opened on the first icon (nb_library_open, CLibraryLoader) instead of linked: a
// run that never shows a tray icon does not map it and its image loaders at start-up. Only the few functions below are
// used, declared here with gdk-pixbuf's own prototypes (GdkPixbuf and GError stay opaque but for
// GError's message).

#include "CPixbuf.h"

#include <CLibraryLoader.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint32_t domain;
  int code;
  char *message;
} PixbufGError;

static const void *(*get_file_info)(const char *path, int *width, int *height);
static void *(*new_from_file)(const char *path, PixbufGError **error);
static void *(*scale_simple)(const void *pixbuf, int width, int height, int interpolation);
static int (*get_width)(const void *pixbuf);
static int (*get_height)(const void *pixbuf);
static int (*get_rowstride)(const void *pixbuf);
static int (*get_n_channels)(const void *pixbuf);
static int (*get_has_alpha)(const void *pixbuf);
static int (*get_bits_per_sample)(const void *pixbuf);
static const uint8_t *(*read_pixels)(const void *pixbuf);
static void (*object_unref)(void *object);
static void (*error_free)(PixbufGError *error);
static int loaded;
static char load_error[256];

static void load_library(void) {
  static const char *const libraries[] = {"libgdk_pixbuf-2.0.so.0"};
  static const NBLibrarySymbol symbols[] = {
    {"gdk_pixbuf_get_file_info", (void **)&get_file_info},
    {"gdk_pixbuf_new_from_file", (void **)&new_from_file},
    {"gdk_pixbuf_scale_simple", (void **)&scale_simple},
    {"gdk_pixbuf_get_width", (void **)&get_width},
    {"gdk_pixbuf_get_height", (void **)&get_height},
    {"gdk_pixbuf_get_rowstride", (void **)&get_rowstride},
    {"gdk_pixbuf_get_n_channels", (void **)&get_n_channels},
    {"gdk_pixbuf_get_has_alpha", (void **)&get_has_alpha},
    {"gdk_pixbuf_get_bits_per_sample", (void **)&get_bits_per_sample},
    {"gdk_pixbuf_read_pixels", (void **)&read_pixels},
    {"g_object_unref", (void **)&object_unref},
    {"g_error_free", (void **)&error_free},
  };
  loaded =
    nb_library_open(libraries, 1, symbols, sizeof symbols / sizeof *symbols, load_error, sizeof load_error) != NULL;
}

static char *copy_text(const char *text) {
  size_t length = strlen(text) + 1;
  char *copy = malloc(length);
  if (copy) memcpy(copy, text, length);
  return copy;
}

NBridgePixbuf nbridge_pixbuf_load(const char *path, int max_side) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, load_library);
  NBridgePixbuf image = {0, 0, NULL, NULL};
  if (!loaded) {
    char message[320];
    snprintf(message, sizeof message, "gdk-pixbuf cannot be used: %s", load_error);
    image.error = copy_text(message);
    return image;
  }
  int file_width = 0, file_height = 0;
  if (!get_file_info(path, &file_width, &file_height)) {
    image.error = copy_text("not an image gdk-pixbuf can read");
    return image;
  }
  if (file_width > 16384 || file_height > 16384) {
    char message[96];
    snprintf(message, sizeof message, "%d x %d pixels, more than the 16384 a side an icon may have", file_width,
             file_height);
    image.error = copy_text(message);
    return image;
  }
  PixbufGError *error = NULL;
  void *pixbuf = new_from_file(path, &error);
  if (!pixbuf) {
    image.error = copy_text(error && error->message ? error->message : "not an image");
    if (error) error_free(error);
    return image;
  }
  int width = get_width(pixbuf), height = get_height(pixbuf);
  if (width > max_side || height > max_side) {
    int scaled_width = width >= height ? max_side : (int)((long)width * max_side / height);
    int scaled_height = height >= width ? max_side : (int)((long)height * max_side / width);
    if (scaled_width < 1) scaled_width = 1;
    if (scaled_height < 1) scaled_height = 1;
    void *scaled = scale_simple(pixbuf, scaled_width, scaled_height, 2 /* GDK_INTERP_BILINEAR */);
    object_unref(pixbuf);
    if (!scaled) {
      image.error = copy_text("out of memory scaling the image");
      return image;
    }
    pixbuf = scaled;
    width = scaled_width;
    height = scaled_height;
  }
  int channels = get_n_channels(pixbuf), alpha = get_has_alpha(pixbuf), stride = get_rowstride(pixbuf);
  if (get_bits_per_sample(pixbuf) != 8 || channels < 3 + alpha) {
    image.error = copy_text("an image layout gdk-pixbuf should never produce");
    object_unref(pixbuf);
    return image;
  }
  image.argb = malloc((size_t)width * height * 4);
  if (!image.argb) {
    image.error = copy_text("out of memory");
    object_unref(pixbuf);
    return image;
  }
  const uint8_t *pixels = read_pixels(pixbuf);
  for (int y = 0; y < height; y++) {
    const uint8_t *in = pixels + (size_t)y * stride;
    uint8_t *out = image.argb + (size_t)y * width * 4;
    for (int x = 0; x < width; x++, in += channels, out += 4) {
      out[0] = alpha ? in[3] : 0xff;
      out[1] = in[0];
      out[2] = in[1];
      out[3] = in[2];
    }
  }
  image.width = width;
  image.height = height;
  object_unref(pixbuf);
  return image;
}

void nbridge_pixbuf_free(NBridgePixbuf *image) {
  free(image->argb);
  free(image->error);
  image->argb = NULL;
  image->error = NULL;
}
