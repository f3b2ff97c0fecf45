// SPDX-License-Identifier: GPL-3.0-or-later
// Which functions of an executable run, in the order they first run: an LD_PRELOAD library for
// packaging/profile-link-order (docs/performance.md, "The code a session runs, in one place").
//
// At load it writes an int3 over the first byte of every function it is given, and when a function
// first runs, puts the byte back, steps the thread back onto it, and appends the function's
// address (relative to the executable's first mapping) to a file. Every function traps once, so
// the profile is exact and costs ~2 µs per function: unlike a sampling profiler it misses the
// functions that run only once, at start-up or at exit, which are most of them.
//
//   OTC_LINK_ORDER_FUNCTIONS=FILE  the executable's function addresses, hexadecimal, one per line
//   OTC_LINK_ORDER_OUT=FILE        where the addresses that ran are written, first run first
//
// A profiling tool only: it makes the executable's code writable, keeps SIGTRAP unblocked in every
// thread (a trap in a thread that blocks it would kill the process), and keeps its own SIGTRAP handler.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

static unsigned long base, text_start, text_end;
static int out = -1;
static unsigned long *addresses; // sorted, relative to base
static unsigned char *original;  // the byte each int3 replaced
static unsigned char *ran;
static long count;

static long find(unsigned long address) {
    long low = 0, high = count - 1;
    while (low <= high) {
        long middle = low + (high - low) / 2;
        if (addresses[middle] == address) return middle;
        if (addresses[middle] < address) low = middle + 1; else high = middle - 1;
    }
    return -1;
}

static void on_trap(int signal_number, siginfo_t *info, void *context) {
    (void)info;
    ucontext_t *machine = context;
    unsigned long next = (unsigned long)machine->uc_mcontext.gregs[REG_RIP];
    long index = find(next - 1 - base);
    if (index < 0) { // not ours: what an int3 does without us
        signal(signal_number, SIG_DFL);
        raise(signal_number);
        return;
    }
    // Another thread may have put the byte back already; it still stepped onto our int3.
    *(volatile unsigned char *)(next - 1) = original[index];
    machine->uc_mcontext.gregs[REG_RIP] = (greg_t)(next - 1);
    if (!__atomic_exchange_n(&ran[index], 1, __ATOMIC_SEQ_CST)) {
        char line[32];
        int length = snprintf(line, sizeof line, "%lx\n", addresses[index]);
        if (write(out, line, (size_t)length) != length) _exit(125);
    }
}

typedef int (*mask_function)(int, const sigset_t *, sigset_t *);

/// Calls libc's `name` with `set` less SIGTRAP, unless it only unblocks.
static int mask_keeping_trap(const char *name, mask_function *real, int how, const sigset_t *set, sigset_t *old) {
    if (!*real) *real = (mask_function)dlsym(RTLD_NEXT, name);
    sigset_t copy;
    if (set && how != SIG_UNBLOCK) {
        copy = *set;
        sigdelset(&copy, SIGTRAP);
        set = &copy;
    }
    return (*real)(how, set, old);
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
    static mask_function real;
    return mask_keeping_trap("pthread_sigmask", &real, how, set, old);
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
    static mask_function real;
    return mask_keeping_trap("sigprocmask", &real, how, set, old);
}

typedef int (*action_function)(int, const struct sigaction *, struct sigaction *);
static action_function real_sigaction;

/// libc's sigaction, except that while profiling SIGTRAP stays ours: a program's own handler for it (otc-prompt's
/// last-resort handler, which restores the terminal and re-raises) would take every breakpoint as a crash.
int sigaction(int signal_number, const struct sigaction *action, struct sigaction *old) {
    if (!real_sigaction) real_sigaction = (action_function)dlsym(RTLD_NEXT, "sigaction");
    if (signal_number == SIGTRAP && action && out >= 0) return real_sigaction(signal_number, NULL, old);
    return real_sigaction(signal_number, action, old);
}

static void fail(const char *what) {
    fprintf(stderr, "link-order-profiler: %s\n", what);
    _exit(125);
}

/// The executable's first mapping and its executable one, from /proc/self/maps.
static void find_text(void) {
    char executable[4096];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length < 0) fail("cannot read /proc/self/exe");
    executable[length] = 0;
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps) fail("cannot read /proc/self/maps");
    char line[8192];
    while (fgets(line, sizeof line, maps)) {
        unsigned long start, end;
        char permissions[8], path[4096] = "";
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095s", &start, &end, permissions, path) < 3) continue;
        if (strcmp(path, executable) != 0) continue;
        if (!base) base = start;
        if (permissions[2] == 'x') { text_start = start; text_end = end; }
    }
    fclose(maps);
    if (!text_start) fail("the executable has no executable mapping");
}

static int by_address(const void *a, const void *b) {
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return (x > y) - (x < y);
}

__attribute__((constructor)) static void start(void) {
    const char *functions = getenv("OTC_LINK_ORDER_FUNCTIONS"), *path = getenv("OTC_LINK_ORDER_OUT");
    if (!functions || !path) return;
    unsetenv("LD_PRELOAD"); // not the programs it starts
    out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out < 0) fail("cannot open OTC_LINK_ORDER_OUT");
    find_text();
    FILE *list = fopen(functions, "r");
    if (!list) fail("cannot open OTC_LINK_ORDER_FUNCTIONS");
    long capacity = 1 << 16;
    addresses = malloc((size_t)capacity * sizeof *addresses);
    unsigned long address;
    while (fscanf(list, "%lx", &address) == 1) {
        if (base + address < text_start || base + address >= text_end) continue;
        if (count == capacity) addresses = realloc(addresses, (size_t)(capacity *= 2) * sizeof *addresses);
        addresses[count++] = address;
    }
    fclose(list);
    qsort(addresses, (size_t)count, sizeof *addresses, by_address);
    long unique = 0;
    for (long i = 0; i < count; i++) if (!unique || addresses[unique - 1] != addresses[i]) addresses[unique++] = addresses[i];
    count = unique;
    original = malloc((size_t)count);
    ran = calloc((size_t)count, 1);
    if (mprotect((void *)text_start, text_end - text_start, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
        fail("cannot make the executable's code writable");
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_trap;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    if (!real_sigaction) real_sigaction = (action_function)dlsym(RTLD_NEXT, "sigaction");
    real_sigaction(SIGTRAP, &action, NULL);
    for (long i = 0; i < count; i++) {
        unsigned char *first = (unsigned char *)(base + addresses[i]);
        original[i] = *first;
        *first = 0xCC;
    }
}
