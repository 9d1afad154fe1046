// LeakSanitizer support for the e2e tests (docs/reliability.md). Only in ASan builds.
//
// The loader unloads drivers and layers at vkDestroyInstance, so memory a driver or layer still
// points to from its globals (lavapipe's caches, the loader's own) is reported at exit as leaked
// from "<unknown module>": nobody can tell whose it is, and no suppression can name it. This
// test program keeps every library loaded instead (its dlclose interposes libc's for the loader):
// LeakSanitizer then sees those globals, still reports memory nothing points to, and names the
// library of every frame of a leak, Kiln's included.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KILN_E2E_KEEP_LIBRARIES_LOADED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define KILN_E2E_KEEP_LIBRARIES_LOADED 1
#endif

#ifdef KILN_E2E_KEEP_LIBRARIES_LOADED
extern "C" __attribute__((visibility("default"))) int dlclose(void*) { return 0; }
#endif
