#ifndef NBRIDGE_CJAVASCRIPTCORE_SHIM_H
#define NBRIDGE_CJAVASCRIPTCORE_SHIM_H

#include <JavaScriptCore/JavaScript.h>
#include <glib.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/random.h>

/* Exported by libjavascriptcoregtk but declared only in WebKit's private headers
   (JSContextRefPrivate.h). Signatures as of WebKitGTK 2.50. */
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
JS_EXPORT void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit,
                                                   JSShouldTerminateCallback callback, void *context);
JS_EXPORT void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);
JS_EXPORT void JSGlobalContextSetUnhandledRejectionCallback(JSGlobalContextRef ctx, JSObjectRef function,
                                                            JSValueRef *exception);


/* JSCOptions (GLib API, jsc/JSCOptions.h; that header needs glib-object's includes). Options must be
   set before the first context group is made. */
gboolean jsc_options_set_boolean(const char *option, gboolean value);

#endif
