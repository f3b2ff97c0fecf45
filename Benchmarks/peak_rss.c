// SPDX-License-Identifier: GPL-3.0-or-later
// Runs COMMAND as the child of this small process and writes the child's peak RSS (wait4's ru_maxrss, KiB)
// to FILE; exits as the child did. Why: a process's ru_maxrss includes the RSS its process had before exec,
// so a command that Python forks and execs reports at least the Python interpreter's ~11.6 MiB (measured with
// /bin/true): the anchors of docs/performance.md's peak RSS were that floor, not their own. Forked from this
// program, whose own RSS is a few hundred KiB, the child's figure is its own.
//   usage: peak_rss FILE COMMAND [ARGUMENT...]      (Benchmarks/whole_process.py, Session(peak_rss=True))
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: peak_rss FILE COMMAND [ARGUMENT...]\n");
        return 64;
    }
    pid_t child = fork();
    if (child < 0) return 71;
    if (child == 0) {
        execvp(argv[2], argv + 2);
        _exit(127);
    }
    // The child shares the terminal: Ctrl-C typed there is its to handle, not ours.
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    int status;
    struct rusage usage;
    while (wait4(child, &status, 0, &usage) < 0) {}
    FILE *out = fopen(argv[1], "w");
    if (out == NULL) return 73;
    fprintf(out, "%ld\n", usage.ru_maxrss);
    fclose(out);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
