// The process's argc and argv as the Swift standard library asks for them
// (`CommandLine.arguments`), taken from glibc's constructor arguments: see StartArguments.c.

#pragma once

/// The arguments the process started with (or those an override set), and their count.
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen);

/// Replaces the arguments `_swift_stdlib_getUnsafeArgvArgc` returns.
__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc);
