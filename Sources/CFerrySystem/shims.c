// Compiled as plain C with _GNU_SOURCE, so that glibc's extensions are declared here; the
// header Swift imports names only standard types.
#define _GNU_SOURCE 1
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "include/CFerrySystem.h"

short cferry_spawn_flag_setsid(void) { return POSIX_SPAWN_SETSID; }

int cferry_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
  return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int cferry_wait_exited(int status) { return WIFEXITED(status); }
int cferry_wait_exit_status(int status) { return WEXITSTATUS(status); }
int cferry_wait_signal(int status) { return WTERMSIG(status); }

int cferry_set_thread_name(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }

// Weak: defined only when ThreadSanitizer's runtime is linked in (swift build --sanitize=thread).
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

void cferry_sanitizer_acquire(const void *address) {
  if (__tsan_acquire) __tsan_acquire((void *)address);
}
void cferry_sanitizer_release(const void *address) {
  if (__tsan_release) __tsan_release((void *)address);
}
