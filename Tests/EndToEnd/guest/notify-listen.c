/*
 * notify-listen: stands in for systemd's notify socket. Binds an AF_UNIX datagram socket at
 * PATH and prints each message it receives as one line, "T MESSAGE", T being CLOCK_MONOTONIC in
 * seconds and the message's newlines shown as " | ".
 *
 *     notify-listen PATH
 *
 * Built by the end-to-end tests with gcc -static -O2.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: notify-listen PATH\n");
        return 2;
    }
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd == -1) {
        printf("notify-listen: socket failed: %s\n", strerror(errno));
        return 1;
    }
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    snprintf(address.sun_path, sizeof address.sun_path, "%s", argv[1]);
    unlink(argv[1]);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) == -1) {
        printf("notify-listen: bind %s failed: %s\n", argv[1], strerror(errno));
        return 1;
    }
    printf("notify-listen: listening on %s\n", argv[1]);
    fflush(stdout);
    char message[4097];
    for (;;) {
        ssize_t n = recv(fd, message, sizeof message - 1, 0);
        if (n == -1) {
            if (errno == EINTR) continue;
            printf("notify-listen: recv failed: %s\n", strerror(errno));
            return 1;
        }
        message[n] = 0;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        printf("%ld.%06ld ", (long)now.tv_sec, now.tv_nsec / 1000);
        for (ssize_t i = 0; i < n; i++) {
            if (message[i] == '\n') fputs(" | ", stdout);
            else putchar(message[i]);
        }
        putchar('\n');
        fflush(stdout);
    }
}
