/* The Swift runtime's hook for jobs enqueued on the global executor
 * (swift/Runtime/Concurrency.h: `swift_task_enqueueGlobal_hook`, a pointer to a swiftcall
 * function taking the job and the runtime's own enqueue). When set, the runtime calls it for
 * every such job instead of handing the job to Dispatch. The daemon sets it to run jobs on
 * its event loops (Sources/FerryBroker/EventLoopGlobalExecutor.swift).
 *
 * Declared here because a static executable has no dynamic symbol table: swift-nio's own
 * takeover (NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor)
 * looks the hook up with dlsym and finds nothing there. */
#ifndef FERRY_CONCURRENCY_HOOKS_H
#define FERRY_CONCURRENCY_HOOKS_H

extern void *_Nullable swift_task_enqueueGlobal_hook;

/* Whether the hook is free; if so, sets it to `hook`. */
static inline int cferry_install_enqueue_global_hook(void *_Nonnull hook) {
  void *expected = 0;
  return __atomic_compare_exchange_n(&swift_task_enqueueGlobal_hook, &expected, hook, 0,
                                     __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

#endif
