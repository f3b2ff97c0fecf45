// SPDX-License-Identifier: GPL-3.0-or-later
// The timed part of Benchmarks/agent.py: puts a password request in place (renames a prepared ask file into the
// watched directory, as systemd-ask-password does) and waits for the agent's first byte on its terminal, so that no
// Python runs between the two instants. Prints "RENAMED_NS FIRST_BYTE_NS" (CLOCK_MONOTONIC, the clock of
// OTC_PROMPT_TRACE and of Python's time.monotonic_ns()); the first byte itself is left unread for the harness.
//   usage: ask_latency PTY_MASTER_FD PREPARED_FILE ASK_FILE     (exit 1: no byte within 10 s)
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: ask_latency PTY_MASTER_FD PREPARED_FILE ASK_FILE\n");
        return 64;
    }
    struct pollfd terminal = {.fd = atoi(argv[1]), .events = POLLIN};
    // Taken before the rename: a harness descheduled after it can only make the agent look slower.
    long long renamed = now_ns();
    if (rename(argv[2], argv[3]) != 0) {
        perror("ask_latency: rename");
        return 73;
    }
    int ready = poll(&terminal, 1, 10000);
    long long first_byte = now_ns();
    if (ready != 1) {
        fprintf(stderr, "ask_latency: no byte on the agent's terminal within 10 s\n");
        return 1;
    }
    printf("%lld %lld\n", renamed, first_byte);
    return 0;
}
