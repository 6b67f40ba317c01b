// Compiled as plain C with _GNU_SOURCE, so that glibc's extensions are declared here; the
// header Swift imports names only standard types.
#define _GNU_SOURCE 1
#include <spawn.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
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

long cferry_send_with_descriptors(int socket, const void *bytes, unsigned long length, const int *descriptors, int count) {
  struct iovec vector = {.iov_base = (void *)bytes, .iov_len = length};
  struct msghdr message = {.msg_iov = &vector, .msg_iovlen = 1};
  union {
    char buffer[CMSG_SPACE(28 * sizeof(int))];
    struct cmsghdr align;
  } control;
  if (count > 28) count = 28;
  if (count > 0) {
    memset(&control, 0, sizeof control);
    message.msg_control = control.buffer;
    message.msg_controllen = CMSG_SPACE(count * sizeof(int));
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(count * sizeof(int));
    memcpy(CMSG_DATA(header), descriptors, count * sizeof(int));
  }
  return sendmsg(socket, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

long cferry_receive_with_descriptors(int socket, void *bytes, unsigned long capacity, int *descriptors, int room, int *received) {
  struct iovec vector = {.iov_base = bytes, .iov_len = capacity};
  union {
    char buffer[CMSG_SPACE(28 * sizeof(int))];
    struct cmsghdr align;
  } control;
  struct msghdr message = {.msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.buffer,
                           .msg_controllen = sizeof control.buffer};
  *received = 0;
  long count = recvmsg(socket, &message, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
  if (count < 0) return count;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    int n = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    int *incoming = (int *)CMSG_DATA(header);
    for (int i = 0; i < n; i++) {
      if (*received < room) descriptors[(*received)++] = incoming[i];
      else close(incoming[i]);
    }
  }
  return count;
}

long cferry_splice(int input, int output, unsigned long length) {
  return splice(input, NULL, output, NULL, length, SPLICE_F_MOVE);
}

int cferry_set_pipe_size(int pipe, int size) { return fcntl(pipe, F_SETPIPE_SZ, size); }

int cferry_memory_file(const char *name) { return memfd_create(name, MFD_CLOEXEC); }
