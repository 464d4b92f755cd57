// jsc-hello FILE: the start-up floor of `nbridge run FILE` (the bench's jsc_c_startup_ms).
// A bare C program that creates a JavaScriptCore context, gives it a `console.log` that writes
// its arguments to stdout, evaluates FILE and returns from main: what any embedder of the same
// library pays before its own work (dynamic linking, the VM and the global object).
// Built by `make bench`: cc -O2 jsc-hello.c $(pkg-config --cflags --libs javascriptcoregtk-4.1).
#include <JavaScriptCore/JavaScript.h>
#include <stdio.h>
#include <stdlib.h>

static JSValueRef logFunction(
  JSContextRef ctx, JSObjectRef function, JSObjectRef self, size_t count, const JSValueRef arguments[],
  JSValueRef *exception) {
  (void)function;
  (void)self;
  for (size_t i = 0; i < count; i++) {
    JSStringRef string = JSValueToStringCopy(ctx, arguments[i], exception);
    if (!string) return JSValueMakeUndefined(ctx);
    size_t size = JSStringGetMaximumUTF8CStringSize(string);
    char *buffer = malloc(size);
    JSStringGetUTF8CString(string, buffer, size);
    fputs(buffer, stdout);
    fputc(i + 1 < count ? ' ' : '\n', stdout);
    free(buffer);
    JSStringRelease(string);
  }
  return JSValueMakeUndefined(ctx);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: jsc-hello FILE\n", stderr);
    return 2;
  }
  FILE *file = fopen(argv[1], "rb");
  if (!file) {
    perror(argv[1]);
    return 1;
  }
  char source[1 << 16];
  size_t length = fread(source, 1, sizeof source - 1, file);
  fclose(file);
  source[length] = 0;

  JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
  JSObjectRef global = JSContextGetGlobalObject(ctx);
  JSObjectRef console = JSObjectMake(ctx, NULL, NULL);
  JSStringRef name = JSStringCreateWithUTF8CString("log");
  JSObjectSetProperty(ctx, console, name, JSObjectMakeFunctionWithCallback(ctx, name, logFunction), 0, NULL);
  JSStringRelease(name);
  name = JSStringCreateWithUTF8CString("console");
  JSObjectSetProperty(ctx, global, name, console, 0, NULL);
  JSStringRelease(name);

  JSStringRef script = JSStringCreateWithUTF8CString(source);
  JSStringRef url = JSStringCreateWithUTF8CString(argv[1]);
  JSValueRef exception = NULL;
  JSEvaluateScript(ctx, script, NULL, url, 1, &exception);
  JSStringRelease(url);
  JSStringRelease(script);
  int status = exception ? 1 : 0;
  if (exception) fputs("jsc-hello: uncaught exception\n", stderr);
  // The context is not released: the process ends here, and a release would add a collection.
  return status;
}
