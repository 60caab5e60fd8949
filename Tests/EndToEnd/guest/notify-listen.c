/*
 * notify-listen: stands in for systemd's notify socket. Binds an AF_UNIX datagram socket at
 * PATH and prints each message it receives as one line, "T MESSAGE", T being CLOCK_MONOTONIC in
 * seconds and the message's newlines shown as " | ".
 *
 *     notify-listen [--stop-on-ready] PATH
 *
 * With --stop-on-ready, the sender of the first READY=1 (its pid from SCM_CREDENTIALS, as systemd
 * learns it) is stopped with SIGSTOP before the line is printed ("stopped PID" follows), so a
 * test sees the screen exactly as it was when the program said it was ready.
 *
 * Built by the end-to-end tests with gcc -static -O2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int stop_on_ready = argc == 3 && strcmp(argv[1], "--stop-on-ready") == 0;
    if (argc != 2 && !stop_on_ready) {
        fprintf(stderr, "usage: notify-listen [--stop-on-ready] PATH\n");
        return 2;
    }
    const char *path = argv[argc - 1];
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd == -1) {
        printf("notify-listen: socket failed: %s\n", strerror(errno));
        return 1;
    }
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    snprintf(address.sun_path, sizeof address.sun_path, "%s", path);
    unlink(path);
    int on = 1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) == -1 ||
        setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof on) == -1) {
        printf("notify-listen: bind %s failed: %s\n", path, strerror(errno));
        return 1;
    }
    printf("notify-listen: listening on %s\n", path);
    fflush(stdout);
    char message[4097];
    for (;;) {
        union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(struct ucred))]; } control;
        struct iovec data = { message, sizeof message - 1 };
        struct msghdr header = { .msg_iov = &data, .msg_iovlen = 1,
                                 .msg_control = &control, .msg_controllen = sizeof control };
        ssize_t n = recvmsg(fd, &header, 0);
        if (n == -1) {
            if (errno == EINTR) continue;
            printf("notify-listen: recv failed: %s\n", strerror(errno));
            return 1;
        }
        message[n] = 0;
        pid_t sender = 0;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&header); c; c = CMSG_NXTHDR(&header, c)) {
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
                struct ucred credentials;
                memcpy(&credentials, CMSG_DATA(c), sizeof credentials);
                sender = credentials.pid;
            }
        }
        int stopped = 0;
        if (stop_on_ready && sender > 0 && strstr(message, "READY=1")) {
            stopped = kill(sender, SIGSTOP) == 0;
            stop_on_ready = 0;
        }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        printf("%ld.%06ld ", (long)now.tv_sec, now.tv_nsec / 1000);
        for (ssize_t i = 0; i < n; i++) {
            if (message[i] == '\n') fputs(" | ", stdout);
            else putchar(message[i]);
        }
        putchar('\n');
        if (stopped) printf("stopped %d\n", (int)sender);
        fflush(stdout);
    }
}
