// WebKitGTK, GTK 3 and the bits of GLib, JavaScriptCore's GLib API and cairo that `nbridge app`
// uses, opened with dlopen by nbw_load. Prototypes are written here by hand (no GTK headers
// are needed to build nbridge): every pointer is opaque, gboolean is int, GType is size_t.

#include "CWebKitGTK.h"

#include <CLibraryLoader.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  uint32_t domain;
  int code;
  char *message;
} GError;
typedef void (*GCallback)(void);
typedef struct {
  int x, y, width, height;
} GdkRectangle;
typedef struct GSList {
  void *data;
  struct GSList *next;
} GSList;
// GdkGeometry's layout (GDK 3).
typedef struct {
  int min_width, min_height, max_width, max_height, base_width, base_height, width_inc, height_inc;
  double min_aspect, max_aspect;
  int win_gravity;
} GdkGeometry;
// GdkEventButton's layout (GDK 3).
typedef struct {
  int type;
  void *window;
  int8_t send_event;
  uint32_t time;
  double x, y;
  double *axes;
  unsigned state;
  unsigned button;
  void *device;
  double x_root, y_root;
} GdkEventButton;
typedef void (*GAsyncReadyCallback)(void *source, void *result, void *data);

// F(name, return type, parameters)
#define FUNCTIONS(F) \
  F(gtk_init_check, int, (int *argc, char ***argv)) \
  F(gtk_window_new, void *, (int type)) \
  F(gtk_window_set_title, void, (void *window, const char *title)) \
  F(gtk_window_set_default_size, void, (void *window, int width, int height)) \
  F(gtk_window_set_resizable, void, (void *window, int resizable)) \
  F(gtk_container_add, void, (void *container, void *widget)) \
  F(gtk_widget_show_all, void, (void *widget)) \
  F(gtk_widget_destroy, void, (void *widget)) \
  F(gtk_window_is_active, int, (void *window)) \
  F(gtk_file_chooser_dialog_new, void *, (const char *title, void *parent, int action, const char *first, ...)) \
  F(gtk_file_chooser_set_select_multiple, void, (void *chooser, int multiple)) \
  F(gtk_file_chooser_set_current_folder, int, (void *chooser, const char *folder)) \
  F(gtk_file_chooser_set_current_name, void, (void *chooser, const char *name)) \
  F(gtk_file_chooser_set_filename, int, (void *chooser, const char *name)) \
  F(gtk_file_chooser_set_do_overwrite_confirmation, void, (void *chooser, int confirm)) \
  F(gtk_file_chooser_add_filter, void, (void *chooser, void *filter)) \
  F(gtk_file_chooser_get_filenames, GSList *, (void *chooser)) \
  F(gtk_file_filter_new, void *, (void)) \
  F(gtk_file_filter_set_name, void, (void *filter, const char *name)) \
  F(gtk_file_filter_add_pattern, void, (void *filter, const char *pattern)) \
  F(gtk_message_dialog_new, void *, (void *parent, int flags, int type, int buttons, const char *format, ...)) \
  F(gtk_dialog_add_button, void *, (void *dialog, const char *text, int response)) \
  F(gtk_dialog_set_default_response, void, (void *dialog, int response)) \
  F(gtk_window_set_modal, void, (void *window, int modal)) \
  F(g_slist_free, void, (GSList * list)) \
  F(gtk_window_get_position, void, (void *window, int *x, int *y)) \
  F(gtk_window_get_size, void, (void *window, int *width, int *height)) \
  F(gtk_window_get_title, const char *, (void *window)) \
  F(gtk_window_move, void, (void *window, int x, int y)) \
  F(gtk_window_resize, void, (void *window, int width, int height)) \
  F(gtk_window_iconify, void, (void *window)) \
  F(gtk_window_deiconify, void, (void *window)) \
  F(gtk_window_maximize, void, (void *window)) \
  F(gtk_window_unmaximize, void, (void *window)) \
  F(gtk_window_fullscreen, void, (void *window)) \
  F(gtk_window_unfullscreen, void, (void *window)) \
  F(gtk_window_set_keep_above, void, (void *window, int setting)) \
  F(gtk_window_set_decorated, void, (void *window, int setting)) \
  F(gtk_window_set_geometry_hints, void, (void *window, void *widget, GdkGeometry * geometry, int mask)) \
  F(gtk_widget_show, void, (void *widget)) \
  F(gtk_widget_hide, void, (void *widget)) \
  F(gtk_widget_get_visible, int, (void *widget)) \
  F(gtk_widget_get_display, void *, (void *widget)) \
  F(gdk_window_get_state, int, (void *window)) \
  F(gdk_window_get_frame_extents, void, (void *window, GdkRectangle * rect)) \
  F(gdk_display_get_monitor_at_window, void *, (void *display, void *window)) \
  F(gdk_display_get_n_monitors, int, (void *display)) \
  F(gdk_display_get_monitor, void *, (void *display, int index)) \
  F(gdk_monitor_get_workarea, void, (void *monitor, GdkRectangle * rect)) \
  F(gdk_monitor_get_geometry, void, (void *monitor, GdkRectangle * rect)) \
  F(gtk_widget_get_mapped, int, (void *widget)) \
  F(gtk_widget_get_window, void *, (void *widget)) \
  F(gtk_window_present_with_time, void, (void *window, uint32_t timestamp)) \
  F(gtk_window_set_titlebar, void, (void *window, void *titlebar)) \
  F(gtk_window_set_transient_for, void, (void *window, void *parent)) \
  F(gtk_window_set_destroy_with_parent, void, (void *window, int setting)) \
  F(gtk_header_bar_new, void *, (void)) \
  F(gtk_header_bar_set_title, void, (void *bar, const char *title)) \
  F(gtk_header_bar_set_show_close_button, void, (void *bar, int setting)) \
  F(gtk_header_bar_pack_start, void, (void *bar, void *child)) \
  F(gtk_button_new_from_icon_name, void *, (const char *icon, int size)) \
  F(gtk_widget_set_sensitive, void, (void *widget, int sensitive)) \
  F(gtk_widget_set_tooltip_text, void, (void *widget, const char *text)) \
  F(webkit_web_view_go_back, void, (void *view)) \
  F(webkit_web_view_get_settings, void *, (void *view)) \
  F(webkit_settings_set_enable_developer_extras, void, (void *settings, int enabled)) \
  F(webkit_web_view_get_inspector, void *, (void *view)) \
  F(webkit_web_inspector_show, void, (void *inspector)) \
  F(webkit_web_view_go_forward, void, (void *view)) \
  F(webkit_web_view_can_go_back, int, (void *view)) \
  F(webkit_web_view_can_go_forward, int, (void *view)) \
  F(gdk_x11_window_get_type, size_t, (void)) \
  F(gdk_x11_get_server_time, uint32_t, (void *window)) \
  F(g_type_check_instance_is_a, int, (void *instance, size_t type)) \
  F(g_signal_connect_data, unsigned long, \
    (void *instance, const char *signal, GCallback handler, void *data, void *destroy, int flags)) \
  F(g_object_new, void *, (size_t type, const char *first, ...)) \
  F(g_object_ref, void *, (void *object)) \
  F(g_object_unref, void, (void *object)) \
  F(g_free, void, (void *memory)) \
  F(g_error_free, void, (GError * error)) \
  F(g_spawn_async, int, \
    (const char *dir, char **argv, char **envp, int flags, void *setup, void *data, int *pid, GError **error)) \
  F(g_memory_input_stream_new_from_data, void *, (const void *data, long length, void (*destroy)(void *))) \
  F(webkit_website_data_manager_new, void *, (const char *first, ...)) \
  F(webkit_web_context_new_with_website_data_manager, void *, (void *manager)) \
  F(webkit_web_context_get_website_data_manager, void *, (void *context)) \
  F(webkit_website_data_manager_clear, void, \
    (void *manager, int types, int64_t timespan, void *cancel, GAsyncReadyCallback callback, void *data)) \
  F(webkit_website_data_manager_clear_finish, int, (void *manager, void *result, GError **error)) \
  F(webkit_web_context_register_uri_scheme, void, \
    (void *context, const char *scheme, void (*callback)(void *, void *), void *data, void *destroy)) \
  F(webkit_web_context_get_security_manager, void *, (void *context)) \
  F(webkit_web_context_allow_tls_certificate_for_host, void, (void *context, void *certificate, const char *host)) \
  F(g_tls_certificate_new_from_file, void *, (const char *file, GError **error)) \
  F(webkit_security_manager_register_uri_scheme_as_secure, void, (void *manager, const char *scheme)) \
  F(webkit_security_manager_register_uri_scheme_as_cors_enabled, void, (void *manager, const char *scheme)) \
  F(webkit_uri_scheme_request_get_uri, const char *, (void *request)) \
  F(webkit_uri_scheme_request_get_path, const char *, (void *request)) \
  F(webkit_uri_scheme_request_finish_with_response, void, (void *request, void *response)) \
  F(webkit_uri_scheme_response_new, void *, (void *stream, int64_t length)) \
  F(webkit_uri_scheme_response_set_status, void, (void *response, unsigned status, const char *reason)) \
  F(webkit_uri_scheme_response_set_content_type, void, (void *response, const char *type)) \
  F(webkit_user_content_manager_new, void *, (void)) \
  F(webkit_user_content_manager_add_script, void, (void *manager, void *script)) \
  F(webkit_user_content_manager_register_script_message_handler, int, (void *manager, const char *name)) \
  F(webkit_user_content_manager_register_script_message_handler_with_reply, int, \
    (void *manager, const char *name, const char *world)) \
  F(webkit_user_script_new, void *, \
    (const char *source, int frames, int time, const char *const *allow, const char *const *block)) \
  F(webkit_user_script_unref, void, (void *script)) \
  F(webkit_javascript_result_get_js_value, void *, (void *result)) \
  F(webkit_script_message_reply_ref, void *, (void *reply)) \
  F(webkit_script_message_reply_unref, void, (void *reply)) \
  F(webkit_script_message_reply_return_value, void, (void *reply, void *value)) \
  F(jsc_value_to_string, char *, (void *value)) \
  F(jsc_value_to_json, char *, (void *value, unsigned indent)) \
  F(jsc_value_is_undefined, int, (void *value)) \
  F(jsc_value_get_context, void *, (void *value)) \
  F(jsc_value_new_string, void *, (void *context, const char *text)) \
  F(jsc_value_new_undefined, void *, (void *context)) \
  F(webkit_web_view_get_type, size_t, (void)) \
  F(webkit_web_view_load_uri, void, (void *view, const char *uri)) \
  F(webkit_web_view_reload, void, (void *view)) \
  F(webkit_web_view_load_alternate_html, void, (void *view, const char *html, const char *uri, const char *base)) \
  F(webkit_web_view_get_uri, const char *, (void *view)) \
  F(webkit_web_view_evaluate_javascript, void, \
    (void *view, const char *script, long length, const char *world, const char *source, void *cancel, \
     GAsyncReadyCallback callback, void *data)) \
  F(webkit_web_view_call_async_javascript_function, void, \
    (void *view, const char *body, long length, void *arguments, const char *world, const char *source, \
     void *cancel, GAsyncReadyCallback callback, void *data)) \
  F(webkit_web_view_call_async_javascript_function_finish, void *, (void *view, void *result, GError **error)) \
  F(webkit_web_view_get_snapshot, void, \
    (void *view, int region, int options, void *cancel, GAsyncReadyCallback callback, void *data)) \
  F(webkit_web_view_get_snapshot_finish, void *, (void *view, void *result, GError **error)) \
  F(webkit_script_dialog_get_dialog_type, int, (void *dialog)) \
  F(webkit_script_dialog_get_message, const char *, (void *dialog)) \
  F(webkit_script_dialog_confirm_set_confirmed, void, (void *dialog, int confirmed)) \
  F(webkit_script_dialog_prompt_set_text, void, (void *dialog, const char *text)) \
  F(webkit_navigation_policy_decision_get_navigation_action, void *, (void *decision)) \
  F(webkit_navigation_action_get_navigation_type, int, (void *action)) \
  F(webkit_navigation_action_is_user_gesture, int, (void *action)) \
  F(webkit_navigation_action_get_request, void *, (void *action)) \
  F(webkit_uri_request_get_uri, const char *, (void *request)) \
  F(webkit_policy_decision_use, void, (void *decision)) \
  F(webkit_policy_decision_ignore, void, (void *decision)) \
  F(webkit_geolocation_permission_request_get_type, size_t, (void)) \
  F(webkit_permission_request_allow, void, (void *request)) \
  F(webkit_permission_request_deny, void, (void *request)) \
  F(webkit_web_context_get_geolocation_manager, void *, (void *context)) \
  F(webkit_geolocation_manager_update_position, void, (void *manager, void *position)) \
  F(webkit_geolocation_manager_failed, void, (void *manager, const char *message)) \
  F(webkit_geolocation_position_new, void *, (double latitude, double longitude, double accuracy)) \
  F(webkit_geolocation_position_free, void, (void *position)) \
  F(webkit_geolocation_position_set_altitude, void, (void *position, double altitude)) \
  F(webkit_geolocation_position_set_speed, void, (void *position, double speed)) \
  F(webkit_geolocation_position_set_heading, void, (void *position, double heading)) \
  F(webkit_geolocation_position_set_timestamp, void, (void *position, uint64_t timestamp)) \
  F(cairo_surface_write_to_png, int, (void *surface, const char *path)) \
  F(cairo_status_to_string, const char *, (int status)) \
  F(cairo_image_surface_get_width, int, (void *surface)) \
  F(cairo_image_surface_get_height, int, (void *surface)) \
  F(cairo_surface_destroy, void, (void *surface)) \
  F(gtk_box_new, void *, (int orientation, int spacing)) \
  F(gtk_box_pack_start, void, (void *box, void *child, int expand, int fill, unsigned padding)) \
  F(gtk_box_reorder_child, void, (void *box, void *child, int position)) \
  F(gtk_menu_bar_new, void *, (void)) \
  F(gtk_menu_new, void *, (void)) \
  F(gtk_menu_item_new_with_mnemonic, void *, (const char *label)) \
  F(gtk_check_menu_item_new_with_mnemonic, void *, (const char *label)) \
  F(gtk_separator_menu_item_new, void *, (void)) \
  F(gtk_check_menu_item_set_active, void, (void *item, int active)) \
  F(gtk_check_menu_item_get_active, int, (void *item)) \
  F(gtk_menu_shell_append, void, (void *shell, void *child)) \
  F(gtk_menu_item_set_submenu, void, (void *item, void *submenu)) \
  F(gtk_menu_attach_to_widget, void, (void *menu, void *widget, void *detacher)) \
  F(gtk_menu_popup_at_rect, void, \
    (void *menu, void *window, const GdkRectangle *rect, int rect_anchor, int menu_anchor, void *trigger)) \
  F(gtk_accel_group_new, void *, (void)) \
  F(gtk_accelerator_parse, void, (const char *accelerator, unsigned *key, int *mods)) \
  F(gtk_widget_add_accelerator, void, \
    (void *widget, const char *signal, void *group, unsigned key, int mods, int flags)) \
  F(gtk_accel_label_set_accel, void, (void *label, unsigned key, int mods)) \
  F(gtk_bin_get_child, void *, (void *bin)) \
  F(gtk_window_add_accel_group, void, (void *window, void *group)) \
  F(gtk_window_remove_accel_group, void, (void *window, void *group)) \
  F(gtk_widget_get_has_window, int, (void *widget)) \
  F(gtk_widget_get_allocation, void, (void *widget, GdkRectangle * allocation)) \
  F(gdk_display_get_default_seat, void *, (void *display)) \
  F(gdk_seat_get_pointer, void *, (void *seat)) \
  F(gdk_window_get_device_position, void *, (void *window, void *device, int *x, int *y, int *mask)) \
  F(gtk_get_current_event, void *, (void)) \
  F(gdk_event_new, GdkEventButton *, (int type)) \
  F(gdk_event_free, void, (void *event)) \
  F(gdk_event_set_device, void, (void *event, void *device)) \
  F(g_idle_add, unsigned, (int (*function)(void *), void *data)) \
  F(g_object_set_data, void, (void *object, const char *key, void *data)) \
  F(g_object_set_data_full, void, (void *object, const char *key, void *data, void (*destroy)(void *))) \
  F(g_object_get_data, void *, (void *object, const char *key)) \
  F(webkit_web_view_execute_editing_command, void, (void *view, const char *command))

#define POINTER(name, ret, params) static ret(*name##_) params;
FUNCTIONS(POINTER)

static void *library;

int nbw_load(const char **error) {
  if (library) return 0;
  static char failure[256];
  static const char *const libraries[] = {"libwebkit2gtk-4.1.so.0"};
#define SYMBOL(name, ret, params) {#name, (void **)&name##_},
  static const NBLibrarySymbol symbols[] = {FUNCTIONS(SYMBOL)};
  void *handle = nb_library_open(libraries, 1, symbols, sizeof symbols / sizeof *symbols, failure, sizeof failure);
  if (!handle) {
    *error = failure;
    return -1;
  }
  library = handle;
  return 0;
}

int nbw_gtk_init(void) { return gtk_init_check_(NULL, NULL); }

#define CONNECT(instance, signal, handler, data) \
  g_signal_connect_data_(instance, signal, (GCallback)(handler), data, NULL, 0)

// A callback and its data, allocated once per connection and kept for the object's life.
typedef struct {
  void *callback;
  void *data;
} Closure;

static Closure *closure(void *callback, void *data) {
  Closure *c = malloc(sizeof *c);
  c->callback = callback;
  c->data = data;
  return c;
}

// MARK: Window

static void on_destroy(void *window, Closure *c) { ((nbw_signal_cb)c->callback)(c->data); }

void *nbw_window_new(const char *title, int width, int height, int resizable, nbw_signal_cb destroyed, void *data) {
  void *window = gtk_window_new_(0);
  gtk_window_set_title_(window, title);
  gtk_window_set_default_size_(window, width, height);
  gtk_window_set_resizable_(window, resizable);
  CONNECT(window, "destroy", on_destroy, closure(destroyed, data));
  return window;
}

void nbw_window_show(void *window, void *view) {
  // The view fills a vertical box, where a menu bar (nbw_window_set_menu_bar) goes above it.
  void *box = gtk_box_new_(1 /* GTK_ORIENTATION_VERTICAL */, 0);
  gtk_box_pack_start_(box, view, 1, 1, 0);
  g_object_set_data_(window, "nbw-box", box);
  gtk_container_add_(window, box);
  gtk_widget_show_all_(window);
}

void nbw_window_destroy(void *window) { gtk_widget_destroy_(window); }

void nbw_window_present(void *window) {
  // On X11 a window manager with focus-stealing prevention (mutter's, for one) refuses a request
  // older than the user's last action in the focused window and only marks the window urgent; GTK's default stamp is this app's own last input event, older than that. The
  // hand-off is the user's request, made now: stamp it with the server's current time.
  uint32_t now = 0;  // GDK_CURRENT_TIME
  void *gdk_window = gtk_widget_get_window_(window);
  if (gdk_window && g_type_check_instance_is_a_(gdk_window, gdk_x11_window_get_type_())) {
    now = gdk_x11_get_server_time_(gdk_window);
  }
  gtk_window_present_with_time_(window, now);
}

// MARK: Popup window

// A popup's back and forward buttons (NULL without navigation) and its view.
typedef struct {
  void *view;
  void *back;
  void *forward;
} History;

static void on_back(void *button, History *h) { webkit_web_view_go_back_(h->view); }
static void on_forward(void *button, History *h) { webkit_web_view_go_forward_(h->view); }

static void on_history_changed(void *view, int event, History *h) {
  gtk_widget_set_sensitive_(h->back, webkit_web_view_can_go_back_(view));
  gtk_widget_set_sensitive_(h->forward, webkit_web_view_can_go_forward_(view));
}

static void *history_button(void *bar, const char *icon, const char *tip, void *handler, History *h) {
  void *button = gtk_button_new_from_icon_name_(icon, 1 /* GTK_ICON_SIZE_MENU */);
  gtk_widget_set_tooltip_text_(button, tip);
  gtk_widget_set_sensitive_(button, 0);
  CONNECT(button, "clicked", handler, h);
  gtk_header_bar_pack_start_(bar, button);
  return button;
}

void *nbw_popup_new(
  void *parent, void *view, const char *title, int width, int height, int navigation, nbw_signal_cb destroyed,
  void *data) {
  void *window = nbw_window_new(title, width, height, 1, destroyed, data);
  void *bar = gtk_header_bar_new_();
  gtk_header_bar_set_title_(bar, title);
  gtk_header_bar_set_show_close_button_(bar, 1);
  if (navigation) {
    History *h = calloc(1, sizeof *h);
    h->view = view;
    h->back = history_button(bar, "go-previous-symbolic", "Back", on_back, h);
    h->forward = history_button(bar, "go-next-symbolic", "Forward", on_forward, h);
    CONNECT(view, "load-changed", on_history_changed, h);
  }
  gtk_window_set_titlebar_(window, bar);
  if (parent) {
    gtk_window_set_transient_for_(window, parent);
    gtk_window_set_destroy_with_parent_(window, 1);
  }
  nbw_window_show(window, view);
  return window;
}

// GdkEventWindowState's layout (GDK 3): type, window, send_event, changed_mask, new_window_state.
typedef struct {
  int type;
  void *window;
  int8_t send_event;
  int changed_mask;
  int new_window_state;
} WindowStateEvent;

enum { WITHDRAWN = 1 << 0, ICONIFIED = 1 << 1 };

// The window's lifecycle state, reported when it may have changed: 2 minimized or hidden,
// 0 focused, 1 shown but not focused.
typedef struct {
  Closure closure;
  int hidden;
} StateWatch;

static void report_state(void *window, StateWatch *w) {
  int state = w->hidden ? 2 : gtk_window_is_active_(window) ? 0 : 1;
  ((nbw_state_cb)w->closure.callback)(state, w->closure.data);
}

static int on_window_state(void *window, WindowStateEvent *event, StateWatch *w) {
  w->hidden = (event->new_window_state & (ICONIFIED | WITHDRAWN)) != 0;
  report_state(window, w);
  return 0;
}

static void on_is_active(void *window, void *pspec, StateWatch *w) { report_state(window, w); }

static int on_unmap(void *window, void *event, StateWatch *w) {
  w->hidden = 1;
  report_state(window, w);
  return 0;
}

static int on_map(void *window, void *event, StateWatch *w) {
  w->hidden = 0;
  report_state(window, w);
  return 0;
}

void nbw_window_watch_state(void *window, nbw_state_cb changed, void *data) {
  StateWatch *w = calloc(1, sizeof *w);
  w->closure.callback = changed;
  w->closure.data = data;
  w->hidden = !gtk_widget_get_mapped_(window);
  CONNECT(window, "window-state-event", on_window_state, w);
  CONNECT(window, "notify::is-active", on_is_active, w);
  CONNECT(window, "unmap-event", on_unmap, w);
  CONNECT(window, "map-event", on_map, w);
}

// MARK: Window management (the `window` service)

enum { MAXIMIZED = 1 << 2, FULLSCREEN = 1 << 4 };

// A window's reported place, to report only what changed.
typedef struct {
  Closure closure;
  int x, y, width, height;
  int active;
} PlaceWatch;

static int report(PlaceWatch *w, int kind, int a, int b) {
  return ((nbw_window_event_cb)w->closure.callback)(kind, a, b, w->closure.data);
}

static int on_configure(void *window, void *event, PlaceWatch *w) {
  int x = 0, y = 0, width = 0, height = 0;
  gtk_window_get_position_(window, &x, &y);
  gtk_window_get_size_(window, &width, &height);
  if (width != w->width || height != w->height) {
    w->width = width;
    w->height = height;
    report(w, NBW_WINDOW_RESIZED, width, height);
  }
  if (x != w->x || y != w->y) {
    w->x = x;
    w->y = y;
    report(w, NBW_WINDOW_MOVED, x, y);
  }
  return 0;
}

static void on_active(void *window, void *pspec, PlaceWatch *w) {
  int active = gtk_window_is_active_(window);
  if (active == w->active) return;
  w->active = active;
  report(w, active ? NBW_WINDOW_FOCUS : NBW_WINDOW_BLUR, 0, 0);
}

static int on_delete(void *window, void *event, PlaceWatch *w) {
  return report(w, NBW_WINDOW_CLOSE_REQUESTED, 0, 0) ? 1 : 0;
}

static int on_state_flags(void *window, WindowStateEvent *event, PlaceWatch *w) {
  report(w, NBW_WINDOW_STATE, nbw_window_flags(window), 0);
  return 0;
}

void nbw_window_watch_place(void *window, nbw_window_event_cb changed, void *data) {
  PlaceWatch *w = calloc(1, sizeof *w);
  w->closure.callback = changed;
  w->closure.data = data;
  gtk_window_get_size_(window, &w->width, &w->height);
  w->x = w->y = -1000000;
  CONNECT(window, "configure-event", on_configure, w);
  CONNECT(window, "notify::is-active", on_active, w);
  CONNECT(window, "delete-event", on_delete, w);
  CONNECT(window, "window-state-event", on_state_flags, w);
}

int nbw_window_flags(void *window) {
  void *gdk_window = gtk_widget_get_window_(window);
  int state = gdk_window ? gdk_window_get_state_(gdk_window) : 0;
  int flags = 0;
  if (state & MAXIMIZED) flags |= NBW_FLAG_MAXIMIZED;
  if (state & FULLSCREEN) flags |= NBW_FLAG_FULLSCREEN;
  if (gtk_window_is_active_(window)) flags |= NBW_FLAG_FOCUSED;
  if (gtk_widget_get_visible_(window) && !(state & (ICONIFIED | WITHDRAWN))) flags |= NBW_FLAG_VISIBLE;
  return flags;
}

void nbw_window_place(void *window, int place[4]) {
  gtk_window_get_position_(window, &place[0], &place[1]);
  gtk_window_get_size_(window, &place[2], &place[3]);
}

const char *nbw_window_title(void *window) { return gtk_window_get_title_(window); }

// Moves the window's frame to the middle of the work area of the monitor it is on.
static void center(void *window) {
  void *gdk_window = gtk_widget_get_window_(window);
  if (!gdk_window) return;
  void *monitor = gdk_display_get_monitor_at_window_(gtk_widget_get_display_(window), gdk_window);
  if (!monitor) return;
  GdkRectangle area, frame;
  gdk_monitor_get_workarea_(monitor, &area);
  gdk_window_get_frame_extents_(gdk_window, &frame);
  gtk_window_move_(window, area.x + (area.width - frame.width) / 2, area.y + (area.height - frame.height) / 2);
}

void nbw_window_change(void *window, int change, int a, int b, const char *text) {
  switch (change) {
  case NBW_CHANGE_TITLE: gtk_window_set_title_(window, text); break;
  case NBW_CHANGE_SIZE: gtk_window_resize_(window, a, b); break;
  case NBW_CHANGE_MIN_SIZE: {
    GdkGeometry geometry = {0};
    geometry.min_width = a;
    geometry.min_height = b;
    gtk_window_set_geometry_hints_(window, NULL, &geometry, 1 << 1 /* GDK_HINT_MIN_SIZE */);
    break;
  }
  case NBW_CHANGE_CENTER: center(window); break;
  case NBW_CHANGE_POSITION: gtk_window_move_(window, a, b); break;
  case NBW_CHANGE_MINIMIZE: gtk_window_iconify_(window); break;
  case NBW_CHANGE_MAXIMIZE: gtk_window_maximize_(window); break;
  case NBW_CHANGE_UNMAXIMIZE: gtk_window_unmaximize_(window); break;
  case NBW_CHANGE_FULLSCREEN: if (a) gtk_window_fullscreen_(window); else gtk_window_unfullscreen_(window); break;
  case NBW_CHANGE_ALWAYS_ON_TOP: gtk_window_set_keep_above_(window, a); break;
  case NBW_CHANGE_SHOW:
    gtk_widget_show_(window);
    gtk_window_deiconify_(window);
    break;
  case NBW_CHANGE_HIDE: gtk_widget_hide_(window); break;
  case NBW_CHANGE_DECORATED: gtk_window_set_decorated_(window, a); break;
  }
}

int nbw_point_on_screen(void *window, int x, int y) {
  void *display = gtk_widget_get_display_(window);
  int count = gdk_display_get_n_monitors_(display);
  for (int i = 0; i < count; i++) {
    GdkRectangle r;
    gdk_monitor_get_geometry_(gdk_display_get_monitor_(display, i), &r);
    if (x >= r.x && y >= r.y && x < r.x + r.width && y < r.y + r.height) return 1;
  }
  return 0;
}

static void on_page_settled(void *view, void *result, void *data) {
  Closure *c = data;
  void *value = webkit_web_view_call_async_javascript_function_finish_(view, result, NULL);
  if (value) g_object_unref_(value);
  ((nbw_signal_cb)c->callback)(c->data);
  free(c);
}

void nbw_view_after_scripts(void *view, nbw_signal_cb done, void *data) {
  webkit_web_view_call_async_javascript_function_(
    view, "return true", -1, NULL, NULL, NULL, NULL, on_page_settled, closure(done, data));
}

// MARK: Dialogs (the `dialog` service)

enum { RESPONSE_ACCEPT = -3, RESPONSE_CANCEL = -6 };

typedef struct {
  nbw_files_cb done;
  void *data;
} FileDialog;

static void on_file_response(void *dialog, int response, FileDialog *f) {
  if (response != RESPONSE_ACCEPT) {
    f->done(NULL, 0, f->data);
  } else {
    GSList *list = gtk_file_chooser_get_filenames_(dialog);
    int count = 0;
    for (GSList *l = list; l; l = l->next) count++;
    const char **paths = calloc((size_t)count + 1, sizeof *paths);
    int i = 0;
    for (GSList *l = list; l; l = l->next) paths[i++] = l->data;
    f->done(paths, count, f->data);
    for (GSList *l = list; l; l = l->next) g_free_(l->data);
    g_slist_free_(list);
    free(paths);
  }
  free(f);
  gtk_widget_destroy_(dialog);
}

void nbw_file_dialog(
  void *parent, int mode, const char *title, int multiple, const char *folder, const char *name,
  const char *const *filters, int filter_count, nbw_files_cb done, void *data) {
  // GtkFileChooserAction: 0 open, 1 save, 2 select folder.
  const char *accept = mode == 1 ? "_Save" : mode == 2 ? "_Select" : "_Open";
  void *dialog = gtk_file_chooser_dialog_new_(
    title, parent, mode, "_Cancel", RESPONSE_CANCEL, accept, RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response_(dialog, RESPONSE_ACCEPT);
  gtk_window_set_modal_(dialog, 1);
  if (mode != 1) gtk_file_chooser_set_select_multiple_(dialog, multiple);
  if (mode == 1) gtk_file_chooser_set_do_overwrite_confirmation_(dialog, 1);
  if (folder) gtk_file_chooser_set_current_folder_(dialog, folder);
  if (name) gtk_file_chooser_set_current_name_(dialog, name);
  for (int i = 0; i < filter_count; i++) {
    // Each filter: its name, then its patterns separated by '\n'.
    const char *text = filters[i];
    const char *newline = strchr(text, '\n');
    if (!newline) continue;
    void *filter = gtk_file_filter_new_();
    char *label = strndup(text, (size_t)(newline - text));
    gtk_file_filter_set_name_(filter, label);
    free(label);
    for (const char *p = newline + 1; *p;) {
      const char *end = strchr(p, '\n');
      size_t length = end ? (size_t)(end - p) : strlen(p);
      char *pattern = strndup(p, length);
      gtk_file_filter_add_pattern_(filter, pattern);
      free(pattern);
      p += length + (end ? 1 : 0);
    }
    gtk_file_chooser_add_filter_(dialog, filter);
  }
  FileDialog *f = malloc(sizeof *f);
  f->done = done;
  f->data = data;
  CONNECT(dialog, "response", on_file_response, f);
  gtk_widget_show_(dialog);
}

typedef struct {
  nbw_choice_cb done;
  void *data;
} MessageDialog;

static void on_message_response(void *dialog, int response, MessageDialog *m) {
  m->done(response >= 0 ? response : -1, m->data);
  free(m);
  gtk_widget_destroy_(dialog);
}

void nbw_message_dialog(
  void *parent, int kind, const char *title, const char *message, const char *const *buttons, int button_count,
  int default_button, nbw_choice_cb done, void *data) {
  // GtkDialogFlags: modal | destroy with parent; GtkButtonsType: none.
  void *dialog = gtk_message_dialog_new_(parent, 1 | 2, kind, 0, "%s", message);
  if (title) gtk_window_set_title_(dialog, title);
  for (int i = 0; i < button_count; i++) gtk_dialog_add_button_(dialog, buttons[i], i);
  if (default_button >= 0) gtk_dialog_set_default_response_(dialog, default_button);
  MessageDialog *m = malloc(sizeof *m);
  m->done = done;
  m->data = data;
  CONNECT(dialog, "response", on_message_response, m);
  gtk_widget_show_(dialog);
}

// MARK: Context and scheme

void *nbw_context_new(const char *data_dir, const char *cache_dir) {
  void *manager =
    webkit_website_data_manager_new_("base-data-directory", data_dir, "base-cache-directory", cache_dir, NULL);
  void *context = webkit_web_context_new_with_website_data_manager_(manager);
  g_object_unref_(manager);
  return context;
}

int nbw_context_allow_certificate(void *context, const char *pem_file, const char *host, char **error) {
  GError *problem = NULL;
  void *certificate = g_tls_certificate_new_from_file_(pem_file, &problem);
  if (!certificate) {
    *error = strdup(problem ? problem->message : "cannot read the certificate");
    if (problem) g_error_free_(problem);
    return -1;
  }
  webkit_web_context_allow_tls_certificate_for_host_(context, certificate, host);
  g_object_unref_(certificate);
  return 0;
}

// WebKitWebsiteDataTypes: WEBKIT_WEBSITE_DATA_MEMORY_CACHE, _DISK_CACHE and _COOKIES.
enum { MEMORY_CACHE = 1 << 0, DISK_CACHE = 1 << 1, COOKIES = 1 << 8 };

static void on_caches_cleared(void *manager, void *result, void *data) {
  Closure *c = data;
  GError *error = NULL;
  if (webkit_website_data_manager_clear_finish_(manager, result, &error)) {
    ((nbw_done_cb)c->callback)(NULL, c->data);
  } else {
    ((nbw_done_cb)c->callback)(error ? error->message : "unknown error", c->data);
  }
  if (error) g_error_free_(error);
  free(c);
}

void nbw_context_clear_caches(void *context, nbw_done_cb done, void *data) {
  void *manager = webkit_web_context_get_website_data_manager_(context);
  webkit_website_data_manager_clear_(
    manager, MEMORY_CACHE | DISK_CACHE | COOKIES, 0 /* all, whatever their age */, NULL, on_caches_cleared,
    closure(done, data));
}

static void on_scheme_request(void *request, void *data) {
  Closure *c = data;
  ((nbw_scheme_cb)c->callback)(
    request, webkit_uri_scheme_request_get_uri_(request), webkit_uri_scheme_request_get_path_(request), c->data);
}

void nbw_context_register_scheme(void *context, const char *scheme, nbw_scheme_cb callback, void *data) {
  webkit_web_context_register_uri_scheme_(context, scheme, on_scheme_request, closure(callback, data), NULL);
  void *security = webkit_web_context_get_security_manager_(context);
  webkit_security_manager_register_uri_scheme_as_secure_(security, scheme);
  webkit_security_manager_register_uri_scheme_as_cors_enabled_(security, scheme);
}

void nbw_scheme_respond(void *request, int status, const char *mime, const void *bytes, size_t length) {
  void *copy = malloc(length ? length : 1);
  if (length) memcpy(copy, bytes, length);
  void *stream = g_memory_input_stream_new_from_data_(copy, (long)length, free);
  void *response = webkit_uri_scheme_response_new_(stream, (int64_t)length);
  webkit_uri_scheme_response_set_status_(response, (unsigned)status, NULL);
  webkit_uri_scheme_response_set_content_type_(response, mime);
  webkit_uri_scheme_request_finish_with_response_(request, response);
  g_object_unref_(response);
  g_object_unref_(stream);
}

// MARK: Scripts and messages

void *nbw_content_manager_new(void) { return webkit_user_content_manager_new_(); }

void nbw_content_manager_add_script(void *manager, const char *source, const char *allow_pattern) {
  const char *allow[] = {allow_pattern, NULL};
  void *script = webkit_user_script_new_(source, 0 /* all frames */, 0 /* document start */, allow, NULL);
  webkit_user_content_manager_add_script_(manager, script);
  webkit_user_script_unref_(script);
}

// A reply handle: the reply and the JS context its value is made in.
typedef struct {
  void *reply;
  void *context;
} Reply;

static int on_message_with_reply(void *manager, void *value, void *reply, Closure *c) {
  char *text = jsc_value_to_string_(value);
  Reply *handle = malloc(sizeof *handle);
  handle->reply = webkit_script_message_reply_ref_(reply);
  handle->context = g_object_ref_(jsc_value_get_context_(value));
  ((nbw_message_cb)c->callback)(text, handle, c->data);
  g_free_(text);
  return 1;
}

static void on_message(void *manager, void *result, Closure *c) {
  char *text = jsc_value_to_string_(webkit_javascript_result_get_js_value_(result));
  ((nbw_message_cb)c->callback)(text, NULL, c->data);
  g_free_(text);
}

static char *detailed(const char *signal, const char *name) {
  size_t a = strlen(signal), b = strlen(name);
  char *s = malloc(a + b + 3);
  memcpy(s, signal, a);
  memcpy(s + a, "::", 2);
  memcpy(s + a + 2, name, b + 1);
  return s;
}

int nbw_content_manager_add_reply_handler(void *manager, const char *name, nbw_message_cb callback, void *data) {
  if (!webkit_user_content_manager_register_script_message_handler_with_reply_(manager, name, NULL)) return -1;
  char *signal = detailed("script-message-with-reply-received", name);
  CONNECT(manager, signal, on_message_with_reply, closure(callback, data));
  free(signal);
  return 0;
}

int nbw_content_manager_add_handler(void *manager, const char *name, nbw_message_cb callback, void *data) {
  if (!webkit_user_content_manager_register_script_message_handler_(manager, name)) return -1;
  char *signal = detailed("script-message-received", name);
  CONNECT(manager, signal, on_message, closure(callback, data));
  free(signal);
  return 0;
}

void nbw_reply(void *reply, const char *text) {
  Reply *handle = reply;
  void *value = text ? jsc_value_new_string_(handle->context, text) : jsc_value_new_undefined_(handle->context);
  webkit_script_message_reply_return_value_(handle->reply, value);
  g_object_unref_(value);
  webkit_script_message_reply_unref_(handle->reply);
  g_object_unref_(handle->context);
  free(handle);
}

// MARK: View

typedef struct {
  nbw_load_cb load;
  nbw_terminated_cb terminated;
  nbw_dialog_cb dialog;
  nbw_policy_cb policy;
  nbw_signal_cb close;
  void *data;
} ViewCallbacks;

static void on_load_changed(void *view, int event, ViewCallbacks *v) { v->load(event, v->data); }
static void on_terminated(void *view, int reason, ViewCallbacks *v) { v->terminated(reason, v->data); }
static void on_close(void *view, ViewCallbacks *v) { v->close(v->data); }

static int on_script_dialog(void *view, void *dialog, ViewCallbacks *v) {
  return v->dialog(webkit_script_dialog_get_dialog_type_(dialog), webkit_script_dialog_get_message_(dialog), dialog,
                   v->data);
}

static int on_decide_policy(void *view, void *decision, int type, ViewCallbacks *v) {
  if (type == 2) return 0;  // responses: WebKit's default
  void *action = webkit_navigation_policy_decision_get_navigation_action_(decision);
  const char *uri = webkit_uri_request_get_uri_(webkit_navigation_action_get_request_(action));
  int allowed = v->policy(type, webkit_navigation_action_get_navigation_type_(action),
                          webkit_navigation_action_is_user_gesture_(action), uri, v->data);
  if (allowed) webkit_policy_decision_use_(decision); else webkit_policy_decision_ignore_(decision);
  return 1;
}

void *nbw_view_new(
  void *context, void *manager, nbw_load_cb load, nbw_terminated_cb terminated, nbw_dialog_cb dialog,
  nbw_policy_cb policy, nbw_signal_cb close, void *data) {
  void *view =
    g_object_new_(webkit_web_view_get_type_(), "web-context", context, "user-content-manager", manager, NULL);
  ViewCallbacks *v = malloc(sizeof *v);
  *v = (ViewCallbacks){load, terminated, dialog, policy, close, data};
  CONNECT(view, "load-changed", on_load_changed, v);
  CONNECT(view, "web-process-terminated", on_terminated, v);
  CONNECT(view, "script-dialog", on_script_dialog, v);
  CONNECT(view, "decide-policy", on_decide_policy, v);
  CONNECT(view, "close", on_close, v);
  return view;
}

void nbw_view_load(void *view, const char *uri) { webkit_web_view_load_uri_(view, uri); }

void nbw_view_load_alternate(void *view, const char *html, const char *uri) {
  webkit_web_view_load_alternate_html_(view, html, uri, NULL);
}

static int on_load_failed(void *view, int event, const char *uri, GError *error, Closure *c) {
  return ((nbw_load_failed_cb)c->callback)(uri, error ? error->message : "unknown error", c->data);
}

void nbw_view_watch_load_failed(void *view, nbw_load_failed_cb failed, void *data) {
  CONNECT(view, "load-failed", on_load_failed, closure(failed, data));
}

void nbw_view_set_developer_extras(void *view, int enabled) {
  webkit_settings_set_enable_developer_extras_(webkit_web_view_get_settings_(view), enabled);
}

void nbw_view_show_inspector(void *view) { webkit_web_inspector_show_(webkit_web_view_get_inspector_(view)); }
void nbw_view_reload(void *view) { webkit_web_view_reload_(view); }
const char *nbw_view_uri(void *view) { return webkit_web_view_get_uri_(view); }

void nbw_view_evaluate(void *view, const char *script, size_t length) {
  webkit_web_view_evaluate_javascript_(view, script, (long)length, NULL, NULL, NULL, NULL, NULL);
}

static void on_async_result(void *view, void *result, void *data) {
  Closure *c = data;
  GError *error = NULL;
  void *value = webkit_web_view_call_async_javascript_function_finish_(view, result, &error);
  if (!value) {
    ((nbw_result_cb)c->callback)(NULL, error ? error->message : "unknown error", c->data);
    if (error) g_error_free_(error);
  } else {
    char *json = jsc_value_is_undefined_(value) ? NULL : jsc_value_to_json_(value, 0);
    ((nbw_result_cb)c->callback)(json, NULL, c->data);
    g_free_(json);
    g_object_unref_(value);
  }
  free(c);
}

void nbw_view_call_async(void *view, const char *body, const char *source_uri, nbw_result_cb callback, void *data) {
  webkit_web_view_call_async_javascript_function_(
    view, body, -1, NULL, NULL, source_uri, NULL, on_async_result, closure(callback, data));
}

typedef struct {
  char *path;
  nbw_snapshot_cb callback;
  void *data;
} Snapshot;

static void on_snapshot(void *view, void *result, void *data) {
  Snapshot *s = data;
  GError *error = NULL;
  void *surface = webkit_web_view_get_snapshot_finish_(view, result, &error);
  if (!surface) {
    s->callback(0, 0, error ? error->message : "no snapshot", s->data);
    if (error) g_error_free_(error);
  } else {
    int status = cairo_surface_write_to_png_(surface, s->path);
    if (status != 0) {
      s->callback(0, 0, cairo_status_to_string_(status), s->data);
    } else {
      s->callback(cairo_image_surface_get_width_(surface), cairo_image_surface_get_height_(surface), NULL, s->data);
    }
    cairo_surface_destroy_(surface);
  }
  free(s->path);
  free(s);
}

void nbw_view_snapshot(void *view, const char *path, nbw_snapshot_cb callback, void *data) {
  Snapshot *s = malloc(sizeof *s);
  s->path = strdup(path);
  s->callback = callback;
  s->data = data;
  webkit_web_view_get_snapshot_(view, 0 /* visible */, 0 /* none */, NULL, on_snapshot, s);
}

void nbw_dialog_answer(void *dialog, int confirmed, const char *text) {
  int type = webkit_script_dialog_get_dialog_type_(dialog);
  if (type == 1 || type == 3) webkit_script_dialog_confirm_set_confirmed_(dialog, confirmed);
  if (type == 2) webkit_script_dialog_prompt_set_text_(dialog, text);
}

int nbw_spawn(const char *const *argv) {
  GError *error = NULL;
  // G_SPAWN_SEARCH_PATH (1 << 2): GLib reaps the child, which is not waited for.
  if (g_spawn_async_(NULL, (char **)argv, NULL, 1 << 2, NULL, NULL, NULL, &error)) return 0;
  if (error) g_error_free_(error);
  return -1;
}

// MARK: Geolocation

static int on_permission_request(void *view, void *request, Closure *c) {
  if (!g_type_check_instance_is_a_(request, webkit_geolocation_permission_request_get_type_())) return 0;
  if (((nbw_decide_cb)c->callback)(c->data)) {
    webkit_permission_request_allow_(request);
  } else {
    webkit_permission_request_deny_(request);
  }
  return 1;
}

void nbw_view_answer_geolocation(void *view, nbw_decide_cb allowed, void *data) {
  CONNECT(view, "permission-request", on_permission_request, closure(allowed, data));
}

typedef struct {
  nbw_manager_cb start;
  nbw_manager_cb stop;
  void *data;
} GeolocationProvider;

static int on_geolocation_start(void *manager, GeolocationProvider *p) {
  p->start(manager, p->data);
  return 1;  // handled: WebKit's own provider stays off
}

static void on_geolocation_stop(void *manager, GeolocationProvider *p) { p->stop(manager, p->data); }

void nbw_context_provide_geolocation(void *context, nbw_manager_cb start, nbw_manager_cb stop, void *data) {
  void *manager = webkit_web_context_get_geolocation_manager_(context);
  GeolocationProvider *p = malloc(sizeof *p);
  p->start = start;
  p->stop = stop;
  p->data = data;
  CONNECT(manager, "start", on_geolocation_start, p);
  CONNECT(manager, "stop", on_geolocation_stop, p);
}

void nbw_geolocation_update(
  void *manager, double latitude, double longitude, double accuracy, double altitude, double speed, double heading,
  unsigned long long timestamp) {
  void *position = webkit_geolocation_position_new_(latitude, longitude, accuracy);
  if (altitude == altitude) webkit_geolocation_position_set_altitude_(position, altitude);
  if (speed == speed) webkit_geolocation_position_set_speed_(position, speed);
  if (heading == heading) webkit_geolocation_position_set_heading_(position, heading);
  if (timestamp) webkit_geolocation_position_set_timestamp_(position, timestamp);
  webkit_geolocation_manager_update_position_(manager, position);
  webkit_geolocation_position_free_(position);
}

void nbw_geolocation_failed(void *manager, const char *message) {
  webkit_geolocation_manager_failed_(manager, message);
}

// MARK: Menus

// A menu's tree: who hears its items (nbw_menu_new) and its accelerator group.
typedef struct {
  nbw_menu_cb activated;
  nbw_signal_cb released;
  void *data;
  void *group;
} MenuRoot;

// One item's report: its tree, its tag, whether it has a check mark.
typedef struct {
  MenuRoot *root;
  int tag;
  int check;
} MenuEntry;

static void on_menu_destroy(void *menu, MenuRoot *root) { root->released(root->data); }

static void free_menu_root(void *data, void *closure) {
  MenuRoot *root = data;
  g_object_unref_(root->group);
  free(root);
}

static void free_entry(void *data, void *closure) { free(data); }

void *nbw_menu_new(int bar, nbw_menu_cb activated, nbw_signal_cb released, void *data) {
  void *menu = bar ? gtk_menu_bar_new_() : gtk_menu_new_();
  MenuRoot *root = malloc(sizeof *root);
  root->activated = activated;
  root->released = released;
  root->data = data;
  root->group = gtk_accel_group_new_();
  g_object_set_data_(menu, "nbw-menu-root", root);
  g_signal_connect_data_(menu, "destroy", (GCallback)on_menu_destroy, root, (void *)free_menu_root, 0);
  return menu;
}

void *nbw_menu_submenu(void *item) {
  void *submenu = gtk_menu_new_();
  gtk_menu_item_set_submenu_(item, submenu);
  return submenu;
}

static void on_menu_item(void *item, MenuEntry *e) {
  int checked = e->check ? gtk_check_menu_item_get_active_(item) : -1;
  e->root->activated(e->tag, checked, e->root->data);
}

void *nbw_menu_add(
  void *root_menu, void *menu, int kind, const char *label, const char *accelerator, int bind, int enabled,
  int checked, int tag) {
  MenuRoot *root = g_object_get_data_(root_menu, "nbw-menu-root");
  void *item = kind == NBW_MENU_SEPARATOR ? gtk_separator_menu_item_new_()
               : kind == NBW_MENU_CHECK    ? gtk_check_menu_item_new_with_mnemonic_(label)
                                           : gtk_menu_item_new_with_mnemonic_(label);
  if (kind == NBW_MENU_CHECK) gtk_check_menu_item_set_active_(item, checked);
  gtk_widget_set_sensitive_(item, enabled);
  if (accelerator && kind != NBW_MENU_SEPARATOR) {
    unsigned key = 0;
    int mods = 0;
    gtk_accelerator_parse_(accelerator, &key, &mods);
    if (key && bind) {
      gtk_widget_add_accelerator_(item, "activate", root->group, key, mods, 1 /* GTK_ACCEL_VISIBLE */);
    } else if (key) {
      gtk_accel_label_set_accel_(gtk_bin_get_child_(item), key, mods);
    }
  }
  if (kind == NBW_MENU_NORMAL || kind == NBW_MENU_CHECK) {
    MenuEntry *e = malloc(sizeof *e);
    e->root = root;
    e->tag = tag;
    e->check = kind == NBW_MENU_CHECK;
    g_signal_connect_data_(item, "activate", (GCallback)on_menu_item, e, (void *)free_entry, 0);
  }
  gtk_menu_shell_append_(menu, item);
  gtk_widget_show_(item);
  return item;
}

void nbw_window_set_menu_bar(void *window, void *bar) {
  void *box = g_object_get_data_(window, "nbw-box");
  void *old = g_object_get_data_(window, "nbw-menu-bar");
  if (old) {
    MenuRoot *root = g_object_get_data_(old, "nbw-menu-root");
    gtk_window_remove_accel_group_(window, root->group);
    gtk_widget_destroy_(old);
  }
  g_object_set_data_(window, "nbw-menu-bar", bar);
  if (!bar || !box) return;
  MenuRoot *root = g_object_get_data_(bar, "nbw-menu-root");
  gtk_window_add_accel_group_(window, root->group);
  gtk_box_pack_start_(box, bar, 0, 0, 0);
  gtk_box_reorder_child_(box, bar, 0);
  gtk_widget_show_(bar);
}

static int destroy_later(void *menu) {
  gtk_widget_destroy_(menu);
  return 0;  // G_SOURCE_REMOVE
}

// GTK deactivates a menu before it activates the item chosen: the menu goes once that is done.
static void on_popup_deactivate(void *menu, void *data) { g_idle_add_(destroy_later, menu); }

// The press that opened a menu, for GTK to tell that click's release from a click outside the
// menu: GTK takes a release within half a second of the press as the end of the opening click.
// A page's message pops the menu up, not an input event, so GTK has no press of its own; with
// none it takes the opening right-click's release, when that reaches the menu after it is up
// (the click goes through the web process and back), for a click outside it, and closes the menu
// at once. This is a press of the button held now (0 when none is: a menu opened without the
// mouse or after the click), at `now`, the X server's time read before the pointer was: the
// release then ends the click when it comes within half a second of the popup. NULL off X11 (no
// server time: GTK's default).
static GdkEventButton *opening_press(void *window, void *pointer, int buttons, uint32_t now) {
  if (!now) return NULL;
  GdkEventButton *press = gdk_event_new_(4 /* GDK_BUTTON_PRESS */);
  press->window = g_object_ref_(window);  // gdk_event_free unrefs it
  press->time = now;
  for (unsigned button = 1; button <= 5 && !press->button; button++) {
    if (buttons & (1 << (7 + button))) press->button = button;  // GDK_BUTTON1_MASK is 1 << 8
  }
  gdk_event_set_device_(press, pointer);
  return press;
}

// A release the X server stamped before the popup belongs to a click made before the menu was up
// (its button was already up when the menu opened), which GTK dispatched only after the popup: it
// hands it to the menu, which would take it for a click outside itself and close. Stopped here.
static int on_popup_release(void *menu, GdkEventButton *event, void *popped_up_at) {
  return (int32_t)(event->time - (uint32_t)(uintptr_t)popped_up_at) < 0;  // X times wrap around
}

int nbw_menu_popup(void *menu, void *view, int x, int y, int at_pointer) {
  void *window = gtk_widget_get_window_(view);
  if (!window || !gtk_widget_get_mapped_(view)) {
    gtk_widget_destroy_(menu);
    return 0;
  }
  gtk_menu_attach_to_widget_(menu, view, NULL);
  uint32_t now = 0;
  if (g_type_check_instance_is_a_(window, gdk_x11_window_get_type_())) now = gdk_x11_get_server_time_(window);
  void *pointer = gdk_seat_get_pointer_(gdk_display_get_default_seat_(gtk_widget_get_display_(view)));
  int pointer_x = 0, pointer_y = 0, buttons = 0;
  gdk_window_get_device_position_(window, pointer, &pointer_x, &pointer_y, &buttons);
  GdkRectangle rect = {x, y, 1, 1};
  if (at_pointer) {
    rect.x = pointer_x;
    rect.y = pointer_y;
  } else if (!gtk_widget_get_has_window_(view)) {
    // The view draws on its parent's window: the page's (x, y) is offset by its place there.
    GdkRectangle allocation;
    gtk_widget_get_allocation_(view, &allocation);
    rect.x += allocation.x;
    rect.y += allocation.y;
  }
  void *trigger = gtk_get_current_event_();
  if (!trigger) trigger = opening_press(window, pointer, buttons, now);
  // GTK shows a menu only if it can grab the pointer and keyboard, and gives up silently when
  // another program holds either (a window manager does for a moment while it focuses a clicked
  // window): try again for up to half a second, then say it could not be shown.
  gtk_menu_popup_at_rect_(menu, window, &rect, 1 /* GDK_GRAVITY_NORTH_WEST */, 1, trigger);
  for (int tries = 0; !gtk_widget_get_mapped_(menu) && tries < 25; tries++) {
    usleep(20000);
    gtk_menu_popup_at_rect_(menu, window, &rect, 1, 1, trigger);
  }
  if (trigger) gdk_event_free_(trigger);
  if (!gtk_widget_get_mapped_(menu)) {
    gtk_widget_destroy_(menu);
    return 2;
  }
  CONNECT(menu, "deactivate", on_popup_deactivate, NULL);
  if (now) CONNECT(menu, "button-release-event", on_popup_release, (void *)(uintptr_t)now);
  return 1;
}

void nbw_view_editing_command(void *view, const char *command) {
  webkit_web_view_execute_editing_command_(view, command);
}
