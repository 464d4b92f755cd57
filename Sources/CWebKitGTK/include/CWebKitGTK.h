// WebKitGTK (webkit2gtk-4.1, GTK 3) for `nbridge app`, opened with dlopen on first use so
// a headless `nbridge run` maps none of it. The API below is nbridge's own: opaque handles
// and plain C types, each function named for what it does and documented with the WebKitGTK
// or GTK function it calls. Strings passed in are copied; strings passed to callbacks live
// for the duration of the callback.
#ifndef NBRIDGE_CWEBKITGTK_H
#define NBRIDGE_CWEBKITGTK_H

#include <stddef.h>

/// Opens libwebkit2gtk-4.1 and resolves every function; 0 on success, else sets *error.
int nbw_load(const char **error);
/// gtk_init_check: 1 when a display could be opened.
int nbw_gtk_init(void);

/// Called with an answer handle (nbw_reply) for the with-reply handler, NULL for a plain one.
typedef void (*nbw_message_cb)(const char *text, void *reply, void *data);
/// A request for `scheme://host/path`; answer with nbw_scheme_respond.
typedef void (*nbw_scheme_cb)(void *request, const char *uri, const char *path, void *data);
/// WebKitLoadEvent: 0 started, 1 redirected, 2 committed, 3 finished.
typedef void (*nbw_load_cb)(int event, void *data);
typedef void (*nbw_signal_cb)(void *data);
/// WebKitWebProcessTerminationReason: 0 crashed, 1 exceeded memory, 2 terminated by API.
typedef void (*nbw_terminated_cb)(int reason, void *data);
/// WebKitScriptDialogType: 0 alert, 1 confirm, 2 prompt, 3 before-unload. Return 1 when answered
/// with nbw_dialog_answer, 0 for GTK's own dialog.
typedef int (*nbw_dialog_cb)(int type, const char *message, void *dialog, void *data);
/// decision: 0 navigation, 1 new window, 2 response; navigation: WebKitNavigationType (0 link
/// clicked, ..., 5 other). Return 1 to let it load, 0 to ignore it.
typedef int (*nbw_policy_cb)(int decision, int navigation, int user_gesture, const char *uri, void *data);
/// The JSON of a script's value (NULL for undefined), or the error message.
typedef void (*nbw_result_cb)(const char *json, const char *error, void *data);
/// A snapshot written to a PNG: width and height, or the error message.
typedef void (*nbw_snapshot_cb)(int width, int height, const char *error, void *data);

/// gtk_window_new + title, default size and resizable; calls `destroyed` on "destroy".
void *nbw_window_new(const char *title, int width, int height, int resizable, nbw_signal_cb destroyed, void *data);
/// gtk_container_add + gtk_widget_show_all.
void nbw_window_show(void *window, void *view);
/// gtk_widget_destroy.
void nbw_window_destroy(void *window);
/// gtk_window_present_with_time: shows, raises and focuses the window (deiconified), stamped on
/// X11 with the server's current time (gdk_x11_get_server_time) so that a window manager's
/// focus-stealing prevention lets it come in front of the window the user was in.
void nbw_window_present(void *window);
/// A popup window over `parent` (transient for it, destroyed with it) showing `view`, with a
/// GtkHeaderBar: `title`, back and forward buttons (webkit_web_view_go_back / _go_forward,
/// sensitive when the view can go there) when `navigation`, and a close button; calls
/// `destroyed` on "destroy".
void *nbw_popup_new(
  void *parent, void *view, const char *title, int width, int height, int navigation, nbw_signal_cb destroyed,
  void *data);
/// The window's lifecycle state as it changes: 0 focused, 1 shown but not focused, 2 minimized or hidden.
typedef void (*nbw_state_cb)(int state, void *data);
/// Watches `window-state-event`, `notify::is-active` and map/unmap, calling `changed` with the state.
void nbw_window_watch_state(void *window, nbw_state_cb changed, void *data);

/// What `nbw_window_watch_place` reports. RESIZED: a, b = the new width and height (the
/// content's, without the window manager's frame); MOVED: a, b = the frame's new top-left corner
/// on the screen; FOCUS, BLUR: the window became active or stopped being; CLOSE_REQUESTED: the
/// user (or the window manager) asked to close it: return 1 to keep it open, 0 to let it close;
/// STATE: a = nbw_window_flags after a change of maximized, fullscreen or minimized.
enum {
  NBW_WINDOW_RESIZED = 0,
  NBW_WINDOW_MOVED = 1,
  NBW_WINDOW_FOCUS = 2,
  NBW_WINDOW_BLUR = 3,
  NBW_WINDOW_CLOSE_REQUESTED = 4,
  NBW_WINDOW_STATE = 5,
};
typedef int (*nbw_window_event_cb)(int kind, int a, int b, void *data);
/// Watches "configure-event", "notify::is-active", "delete-event" and "window-state-event",
/// calling `changed` with what changed (size and position only when they differ from the last).
void nbw_window_watch_place(void *window, nbw_window_event_cb changed, void *data);
/// The window's flags now: gdk_window_get_state (maximized, fullscreen, iconified),
/// gtk_window_is_active and gtk_widget_get_visible.
enum { NBW_FLAG_MAXIMIZED = 1, NBW_FLAG_FULLSCREEN = 2, NBW_FLAG_FOCUSED = 4, NBW_FLAG_VISIBLE = 8 };
int nbw_window_flags(void *window);
/// gtk_window_get_position (the frame's top-left corner) and gtk_window_get_size (the
/// content's): x, y, width, height.
void nbw_window_place(void *window, int place[4]);
/// gtk_window_get_title.
const char *nbw_window_title(void *window);
/// What nbw_window_change does: TITLE gtk_window_set_title(text); SIZE gtk_window_resize(a, b);
/// MIN_SIZE gtk_window_set_geometry_hints with a minimum of a x b; CENTER gtk_window_move to the
/// middle of its monitor's work area (gdk_monitor_get_workarea); POSITION gtk_window_move(a, b);
/// MINIMIZE gtk_window_iconify; MAXIMIZE, UNMAXIMIZE; FULLSCREEN gtk_window_fullscreen when a,
/// else _unfullscreen; ALWAYS_ON_TOP gtk_window_set_keep_above(a); SHOW gtk_widget_show and
/// gtk_window_deiconify; HIDE gtk_widget_hide; DECORATED gtk_window_set_decorated(a).
enum {
  NBW_CHANGE_TITLE,
  NBW_CHANGE_SIZE,
  NBW_CHANGE_MIN_SIZE,
  NBW_CHANGE_CENTER,
  NBW_CHANGE_POSITION,
  NBW_CHANGE_MINIMIZE,
  NBW_CHANGE_MAXIMIZE,
  NBW_CHANGE_UNMAXIMIZE,
  NBW_CHANGE_FULLSCREEN,
  NBW_CHANGE_ALWAYS_ON_TOP,
  NBW_CHANGE_SHOW,
  NBW_CHANGE_HIDE,
  NBW_CHANGE_DECORATED,
};
void nbw_window_change(void *window, int change, int a, int b, const char *text);
/// 1 when (x, y) is on one of the display's monitors (gdk_monitor_get_geometry).
int nbw_point_on_screen(void *window, int x, int y);
/// Calls `done` once the page has run every script sent to it before (an empty function through
/// webkit_web_view_call_async_javascript_function, whose answer comes after theirs).
void nbw_view_after_scripts(void *view, nbw_signal_cb done, void *data);

/// The paths chosen (`count` of them), or NULL when the dialog was cancelled (Escape, Cancel, closed).
typedef void (*nbw_files_cb)(const char *const *paths, int count, void *data);
/// A GtkFileChooserDialog over `parent` (modal): `mode` 0 open, 1 save (asks before replacing a
/// file), 2 choose a folder; `multiple` lets the user pick several (open, folder); `folder`,
/// `name` (save) preset it (NULL: GTK's); each of `filters` is a filter's name and its glob
/// patterns, separated by '\n' (gtk_file_filter_add_pattern). `done` is called once.
void nbw_file_dialog(
  void *parent, int mode, const char *title, int multiple, const char *folder, const char *name,
  const char *const *filters, int filter_count, nbw_files_cb done, void *data);
/// The index of the button pressed, or -1 when the dialog was closed without one (Escape).
typedef void (*nbw_choice_cb)(int button, void *data);
/// A GtkMessageDialog over `parent` (modal): `kind` GtkMessageType (0 info, 1 warning, 2
/// question, 3 error), `title` (NULL: none), `message`, and `buttons` in order, the one at
/// `default_button` (or none: -1) answering Return. `done` is called once.
void nbw_message_dialog(
  void *parent, int kind, const char *title, const char *message, const char *const *buttons, int button_count,
  int default_button, nbw_choice_cb done, void *data);

/// webkit_web_context_new_with_website_data_manager with its folders under `data_dir` and `cache_dir`.
void *nbw_context_new(const char *data_dir, const char *cache_dir);
/// webkit_web_context_allow_tls_certificate_for_host with the PEM certificate in `pem_file`
/// (g_tls_certificate_new_from_file); 0, or -1 with *error set (free it).
int nbw_context_allow_certificate(void *context, const char *pem_file, const char *host, char **error);
/// Called once when an asynchronous job ends: NULL, or the error message.
typedef void (*nbw_done_cb)(const char *error, void *data);
/// webkit_website_data_manager_clear of the context's data manager: its memory and disk caches
/// and its cookies, of any age; `done` is called when it has finished.
void nbw_context_clear_caches(void *context, nbw_done_cb done, void *data);
/// webkit_web_context_register_uri_scheme, registered as secure and CORS-enabled.
void nbw_context_register_scheme(void *context, const char *scheme, nbw_scheme_cb callback, void *data);
/// webkit_uri_scheme_response_new with a copy of `bytes`, its content type and HTTP status.
void nbw_scheme_respond(void *request, int status, const char *mime, const void *bytes, size_t length);

/// webkit_user_content_manager_new.
void *nbw_content_manager_new(void);
/// webkit_user_script_new at document start, in frames whose URL matches `allow_pattern`.
void nbw_content_manager_add_script(void *manager, const char *source, const char *allow_pattern);
/// webkit_user_content_manager_register_script_message_handler_with_reply: postMessage returns a Promise.
int nbw_content_manager_add_reply_handler(void *manager, const char *name, nbw_message_cb callback, void *data);
/// webkit_user_content_manager_register_script_message_handler: postMessage returns nothing.
int nbw_content_manager_add_handler(void *manager, const char *name, nbw_message_cb callback, void *data);
/// webkit_script_message_reply_return_value with a string (NULL answers undefined); frees the handle.
void nbw_reply(void *reply, const char *text);

/// A WebKitWebView in `context` with `manager`, with its load, crash, dialog, navigation and close signals.
void *nbw_view_new(
  void *context, void *manager, nbw_load_cb load, nbw_terminated_cb terminated, nbw_dialog_cb dialog,
  nbw_policy_cb policy, nbw_signal_cb close, void *data);
/// webkit_web_view_load_uri.
void nbw_view_load(void *view, const char *uri);
/// webkit_web_view_reload.
void nbw_view_reload(void *view);
/// webkit_web_view_load_alternate_html: `html` shown in place of `uri`'s page, the view's URI
/// staying `uri` (a reload asks for it again).
void nbw_view_load_alternate(void *view, const char *html, const char *uri);
/// A main-frame load that failed: the URI and the error's message. Return 1 when handled (the
/// view is given something else to show), 0 for WebKit's own error page.
typedef int (*nbw_load_failed_cb)(const char *uri, const char *message, void *data);
/// Connects "load-failed" to `failed`.
void nbw_view_watch_load_failed(void *view, nbw_load_failed_cb failed, void *data);
/// WebKitSettings' enable-developer-extras: the context menu's "Inspect Element" and the inspector.
void nbw_view_set_developer_extras(void *view, int enabled);
/// webkit_web_inspector_show: opens WebKit's Web Inspector for the view (developer extras on).
void nbw_view_show_inspector(void *view);
/// webkit_web_view_get_uri (NULL before any load).
const char *nbw_view_uri(void *view);
/// webkit_web_view_evaluate_javascript in the main frame, result ignored.
void nbw_view_evaluate(void *view, const char *script, size_t length);
/// webkit_web_view_call_async_javascript_function: `body` is an async function's body; the
/// result (its promise awaited) comes back as JSON.
void nbw_view_call_async(void *view, const char *body, const char *source_uri, nbw_result_cb callback, void *data);
/// webkit_web_view_get_snapshot of the visible region, written as PNG to `path` (cairo).
void nbw_view_snapshot(void *view, const char *path, nbw_snapshot_cb callback, void *data);

/// Returns 1 to allow, 0 to deny.
typedef int (*nbw_decide_cb)(void *data);
/// "permission-request" for a WebKitGeolocationPermissionRequest (navigator.geolocation):
/// webkit_permission_request_allow when `allowed` returns 1, else _deny. Other requests keep
/// WebKit's default.
void nbw_view_answer_geolocation(void *view, nbw_decide_cb allowed, void *data);
/// A WebKitGeolocationManager's signal, with the manager.
typedef void (*nbw_manager_cb)(void *manager, void *data);
/// The context's WebKitGeolocationManager: "start" (a page asks for positions) calls `start`,
/// "stop" (no page asks any more) calls `stop`; the app answers with nbw_geolocation_update /
/// _failed on the manager. Handling "start" keeps WebKit's own GeoClue provider out.
void nbw_context_provide_geolocation(void *context, nbw_manager_cb start, nbw_manager_cb stop, void *data);
/// webkit_geolocation_manager_update_position with webkit_geolocation_position_new(latitude,
/// longitude, accuracy) and, where not NaN, its altitude (metres), speed (m/s) and heading
/// (degrees); `timestamp` in seconds since the epoch (0: now).
void nbw_geolocation_update(
  void *manager, double latitude, double longitude, double accuracy, double altitude, double speed, double heading,
  unsigned long long timestamp);
/// webkit_geolocation_manager_failed: the page's error callback gets POSITION_UNAVAILABLE with `message`.
void nbw_geolocation_failed(void *manager, const char *message);

/// webkit_script_dialog_confirm_set_confirmed / _prompt_set_text (text NULL: cancelled).
void nbw_dialog_answer(void *dialog, int confirmed, const char *text);

/// g_spawn_async with the search path: starts `argv` (NULL-terminated) and lets GLib reap it; 0 on success.
int nbw_spawn(const char *const *argv);

/// A menu item was chosen: its tag, and its check mark (1 checked, 0 not) or -1 without one.
typedef void (*nbw_menu_cb)(int tag, int checked, void *data);
/// What nbw_menu_add adds: an item, an item with a check mark, a separator line, an item that
/// opens a submenu (nbw_menu_submenu; choosing it reports nothing).
enum { NBW_MENU_NORMAL = 0, NBW_MENU_CHECK = 1, NBW_MENU_SEPARATOR = 2, NBW_MENU_SUBMENU = 3 };
/// A GtkMenuBar (`bar`) or GtkMenu, the root of a tree of menus whose items (nbw_menu_add)
/// report to `activated`, with an accelerator group of its own; `released` is called once, when
/// it is destroyed (nbw_window_set_menu_bar replacing it, a popup closed).
void *nbw_menu_new(int bar, nbw_menu_cb activated, nbw_signal_cb released, void *data);
/// gtk_menu_item_set_submenu: a new GtkMenu under `item`, for its items.
void *nbw_menu_submenu(void *item);
/// Appends an item of `kind` to `menu` (the root or one of its submenus): `label` with its
/// mnemonic (gtk_menu_item_new_with_mnemonic), `accelerator` (NULL: none) bound in the root's
/// group when `bind` (gtk_widget_add_accelerator) else only shown (gtk_accel_label_set_accel),
/// sensitive when `enabled`, checked when `checked`; choosing it reports `tag`. Returns the item.
void *nbw_menu_add(
  void *root, void *menu, int kind, const char *label, const char *accelerator, int bind, int enabled, int checked,
  int tag);
/// Puts `bar` (a root from nbw_menu_new(1, ...), or NULL: none) above the window's view, with its
/// accelerators bound (gtk_window_add_accel_group); destroys the bar shown before.
void nbw_window_set_menu_bar(void *window, void *bar);
/// gtk_menu_popup_at_rect over `view`: the menu's top-left corner at (x, y) in the view or, when
/// `at_pointer`, at the pointer, with a press of the button held now, at the X server's time, as
/// its trigger event (the release of the click that opened it ends that click; one the server
/// stamped before the popup is dropped). The menu is destroyed once it closes. 1 once it is up;
/// else the menu is destroyed at once and the result says why: 0 when the view is not shown (its
/// window hidden or minimized), 2 when another program kept the pointer or keyboard grabbed for
/// half a second.
int nbw_menu_popup(void *menu, void *view, int x, int y, int at_pointer);
/// webkit_web_view_execute_editing_command (`Copy`, `Cut`, `Paste`, `SelectAll`, `Undo`, `Redo`).
void nbw_view_editing_command(void *view, const char *command);

#endif
