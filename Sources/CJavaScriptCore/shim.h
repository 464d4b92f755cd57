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

/* JSScriptRefPrivate.h: a script over text the caller keeps for the process's life; JavaScriptCore
   neither copies nor widens it. */
typedef struct OpaqueJSScript *JSScriptRef;
JS_EXPORT JSScriptRef JSScriptCreateReferencingImmortalASCIIText(JSContextGroupRef contextGroup, JSStringRef url,
                                                                 int startingLineNumber, const char *source,
                                                                 size_t length, JSStringRef *errorMessage,
                                                                 int *errorLine);
JS_EXPORT JSValueRef JSScriptEvaluate(JSContextRef context, JSScriptRef script, JSValueRef thisValue,
                                      JSValueRef *exception);
JS_EXPORT void JSScriptRelease(JSScriptRef script);

/* JSLockRefPrivate.h: the VM's API lock, which every C API call takes and releases (and which
   JavaScriptCore drops before it calls a native function's callback). Held across a callback's
   calls, each of them takes it again recursively instead of acquiring it. */
JS_EXPORT void JSLock(JSContextRef ctx);
JS_EXPORT void JSUnlock(JSContextRef ctx);

/* JSCOptions (GLib API, jsc/JSCOptions.h; that header needs glib-object's includes). Options must be
   set before the first context group is made. */
gboolean jsc_options_set_boolean(const char *option, gboolean value);

#endif
