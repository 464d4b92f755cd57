// nb_library_open: CLibraryLoader.h says what it does.

#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>

void *nb_library_open(const char *const *libraries, size_t count_libraries, const NBLibrarySymbol *symbols,
                      size_t count_symbols, char *error, size_t error_size) {
  for (size_t i = 0; i < count_symbols; i++) *symbols[i].address = NULL;
  void *handle = NULL;
  const char *opened = NULL;
  const char *failure = "no library to open";
  for (size_t i = 0; i < count_libraries && handle == NULL; i++) {
    handle = dlopen(libraries[i], RTLD_NOW | RTLD_LOCAL);
    if (handle != NULL) {
      opened = libraries[i];
    } else {
      const char *text = dlerror();
      failure = text != NULL ? text : libraries[i];
    }
  }
  if (handle == NULL) {
    snprintf(error, error_size, "%s", failure);
    return NULL;
  }
  for (size_t i = 0; i < count_symbols; i++) {
    void *address = dlsym(handle, symbols[i].name);
    if (address == NULL) {
      snprintf(error, error_size, "%s lacks %s", opened, symbols[i].name);
      for (size_t j = 0; j < i; j++) *symbols[j].address = NULL;
      dlclose(handle);
      return NULL;
    }
    *symbols[i].address = address;
  }
  return handle;
}
