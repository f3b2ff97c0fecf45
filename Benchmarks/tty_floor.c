/* The floor of the footprint and start-up targets' start-up figures: a static C program that opens /dev/tty and writes one
 * line, then exits. Nothing can reach the terminal sooner than this; `make bench` builds it with
 * gcc -static -O2 and reports it in the same table as otc-prompt (Benchmarks/footprint.py). */
#include <fcntl.h>
#include <unistd.h>

int main(void) {
    static const char line[] = "Enter the code: \n";
    int fd = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return 74;
    return write(fd, line, sizeof line - 1) == (ssize_t)(sizeof line - 1) ? 0 : 74;
}
