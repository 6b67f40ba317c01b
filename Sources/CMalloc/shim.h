/* glibc's allocator controls (mallopt, malloc_trim), which Swift's Glibc module leaves out:
 * the daemon uses them to give freed memory back (Sources/FerryBroker/HeapRelease.swift). */
#include <malloc.h>
