// The Swift runtime's own definition of these two functions (CommandLine.cpp in libswiftCore.a)
// finds argv at start-up by reading /proc/self/maps line by line (about 150 mappings once
// JavaScriptCore's libraries are loaded) to locate the stack, then walking back from
// `environ`: a cost at every start of `nbridge`, before `main`. glibc hands argc and argv to
// every ELF constructor, so this file takes them there and defines the two symbols itself;
// the linker then never pulls CommandLine.cpp.o out of the static library. Linked into the
// `nbridge` executable only (Package.swift). Should a toolchain add a symbol to that object,
// the link fails with a duplicate definition rather than misbehaving.

#include "CStartArguments.h"

static char **start_argv;
static int start_argc;
static char **override_argv;
static int override_argc;

__attribute__((constructor(101))) static void nbridge_take_arguments(int argc, char **argv, char **envp) {
  (void)envp;
  start_argc = argc;
  start_argv = argv;
}

__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
  if (override_argv) {
    *outArgLen = override_argc;
    return override_argv;
  }
  static char *empty[] = {0};
  if (!start_argv) {
    *outArgLen = 0;
    return empty;
  }
  *outArgLen = start_argc;
  return start_argv;
}

__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
  override_argv = argv;
  override_argc = argc;
}
