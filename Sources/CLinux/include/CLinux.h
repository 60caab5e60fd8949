// Linux interfaces that Swift's Glibc module does not import: epoll, timerfd, eventfd, signalfd,
// inotify, netlink (uevents), mallopt, and evdev's ioctls, whose request numbers are function-like macros Swift cannot call.
#ifndef VITRINE_CLINUX_H
#define VITRINE_CLINUX_H

#include <stdint.h>
#include <stddef.h>
#include <wchar.h>
#include <malloc.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <linux/input.h>
#include <linux/netlink.h>
#include <linux/uinput.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

// n 32-bit pixels set to `value`. From 2 KB up on x86-64, `rep stosl`: the CPU's fast-string path
// writes whole cache lines without reading them first (glibc's memset switches to `rep stosb` at
// 2 KB for that reason, but its wmemset has no such path; a 1080p fill measured 0.75x pixman's
// time this way, 1.0x through wmemset). Smaller fills, and other CPUs, take glibc's wmemset.
static inline void vitrine_fill32(uint32_t *start, uint32_t value, size_t n) {
    _Static_assert(sizeof(wchar_t) == sizeof(uint32_t), "wchar_t is 32 bits on Linux");
#if defined(__x86_64__)
    if (n >= 512) {
        __asm__ volatile("rep stosl" : "+D"(start), "+c"(n) : "a"(value) : "memory");
        return;
    }
#endif
    wmemset((wchar_t *)start, (wchar_t)value, n);
}

// The calling thread's niceness raised to `nice` (setpriority on its thread id: Linux's niceness is
// per thread). 0, or -1 with errno.
static inline int vitrine_set_thread_nice(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}

// The kiosk's signals (signals.c), blocked by the executable's DT_PREINIT_ARRAY before any other
// code runs: how many, and the one at `index` (0 past the end).
size_t vitrine_kiosk_signal_count(void);
int vitrine_kiosk_signal(size_t index);

// evdev ioctls, each returning what ioctl returns (-1 with errno on failure).
int vitrine_eviocgversion(int fd, int *version);
int vitrine_eviocgname(int fd, char *name, unsigned long length);
int vitrine_eviocgid(int fd, struct input_id *id);
int vitrine_eviocgbit(int fd, unsigned int type, unsigned char *bits, unsigned long length);
int vitrine_eviocgprop(int fd, unsigned char *bits, unsigned long length);
int vitrine_eviocgabs(int fd, unsigned int axis, struct input_absinfo *info);
int vitrine_eviocgrab(int fd, int grab);
int vitrine_eviocsclockid(int fd, int clock);
int vitrine_eviocgkey(int fd, unsigned char *bits, unsigned long length);
// EVIOCGMTSLOTS: values[0] is the ABS_MT code asked for; values[1...count] come back, one per slot.
int vitrine_eviocgmtslots(int fd, int32_t *values, unsigned long count);

#endif
