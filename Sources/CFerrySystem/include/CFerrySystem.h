// What FerrySystem needs from the C library and Swift cannot import: names glibc declares
// only under _GNU_SOURCE (which Swift's Glibc module is built without), and the wait-status
// macros, and thread names. FerrySystem imports this module.
#ifndef CFERRYSYSTEM_H
#define CFERRYSYSTEM_H

#include <spawn.h>

// POSIX_SPAWN_SETSID: the child starts a session of its own (setsid(2)), with no
// controlling terminal. 0x80 in glibc, declared only under _GNU_SOURCE.
short cferry_spawn_flag_setsid(void);

// posix_spawn_file_actions_addclosefrom_np(3) (glibc 2.34): the child closes every
// descriptor from `lowest` up, after the actions added before it.
int cferry_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

// WIFEXITED / WEXITSTATUS / WTERMSIG of a wait status.
int cferry_wait_exited(int status);
int cferry_wait_exit_status(int status);
int cferry_wait_signal(int status);

// Names the calling thread (prctl(2) PR_SET_NAME: at most 15 bytes kept), as
// pthread_setname_np(3) would; both are out of Swift's reach (a variadic function, a
// _GNU_SOURCE name). Returns 0 on success.
int cferry_set_thread_name(const char *name);

// ThreadSanitizer's happens-before annotations (__tsan_acquire, __tsan_release) on `address`,
// for locks it cannot see into; nothing when the process has no ThreadSanitizer runtime.
void cferry_sanitizer_acquire(const void *address);
void cferry_sanitizer_release(const void *address);

// sendmsg(2) of `length` bytes with `count` descriptors as SCM_RIGHTS (at most 28), and
// MSG_NOSIGNAL: a peer that closed its end is EPIPE, never SIGPIPE. Returns what sendmsg does.
long cferry_send_with_descriptors(int socket, const void *bytes, unsigned long length, const int *descriptors, int count);

// recvmsg(2) of at most `capacity` bytes, with MSG_CMSG_CLOEXEC; the descriptors that came
// (at most `room`) are stored in `descriptors` and counted in `*received`. Returns what
// recvmsg does.
long cferry_receive_with_descriptors(int socket, void *bytes, unsigned long capacity, int *descriptors, int room, int *received);

// splice(2) of at most `length` bytes from `input` to `output`, one of which is a pipe, with
// SPLICE_F_MOVE, at the descriptors' own offsets: the kernel moves the pages, never through
// this process's memory. Returns what splice does (-1 and errno EINVAL: the pair cannot be
// spliced, say a terminal).
long cferry_splice(int input, int output, unsigned long length);

// fcntl(2) F_SETPIPE_SZ: asks for a pipe buffer of at least `size` bytes (at most
// /proc/sys/fs/pipe-max-size unprivileged). Returns the new size, or -1 with errno.
int cferry_set_pipe_size(int pipe, int size);

// memfd_create(2) with MFD_CLOEXEC: a file that lives in memory only, never on a disk.
// Returns the descriptor, or -1 with errno.
int cferry_memory_file(const char *name);

#endif
