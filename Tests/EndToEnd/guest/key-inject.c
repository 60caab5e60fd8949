/*
 * key-inject: a keyboard made with /dev/uinput (Esc, the letters and digits, Enter, Space),
 * for `vitrine inputs` to classify. It only exists: it sends nothing, and lives until killed.
 *
 *     key-inject
 *
 * Prints "key-inject: device /dev/input/eventN" once the device exists.
 * Built by the end-to-end tests with gcc -static -O2.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static void die(const char *call) {
    fprintf(stdout, "key-inject: %s failed: %s\n", call, strerror(errno));
    exit(1);
}

int main(void) {
    int device = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
    if (device == -1) die("open /dev/uinput");
    if (ioctl(device, UI_SET_EVBIT, EV_SYN) == -1 || ioctl(device, UI_SET_EVBIT, EV_KEY) == -1) die("UI_SET_EVBIT");
    /* KEY_ESC (1) through KEY_SPACE (57): Esc, digits, letters, Enter, Space and their neighbours. */
    for (int key = KEY_ESC; key <= KEY_SPACE; key++)
        if (ioctl(device, UI_SET_KEYBIT, key) == -1) die("UI_SET_KEYBIT");

    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x1234;
    setup.id.product = 0x4b42;
    snprintf(setup.name, sizeof setup.name, "vitrine e2e keyboard");
    if (ioctl(device, UI_DEV_SETUP, &setup) == -1) die("UI_DEV_SETUP");
    if (ioctl(device, UI_DEV_CREATE) == -1) die("UI_DEV_CREATE");

    /* The evdev node: /sys/devices/virtual/input/<sysname>/eventN. */
    char sysname[64] = "", path[160];
    if (ioctl(device, UI_GET_SYSNAME(sizeof sysname), sysname) == -1) die("UI_GET_SYSNAME");
    snprintf(path, sizeof path, "/sys/devices/virtual/input/%s", sysname);
    for (int attempt = 0; attempt < 200; attempt++) {
        DIR *dir = opendir(path);
        struct dirent *entry;
        while (dir && (entry = readdir(dir))) {
            if (strncmp(entry->d_name, "event", 5) == 0) {
                printf("key-inject: device /dev/input/%s\n", entry->d_name);
                fflush(stdout);
                closedir(dir);
                for (;;) pause();
            }
        }
        if (dir) closedir(dir);
        struct timespec t = { 0, 10000000L };
        nanosleep(&t, NULL);
    }
    printf("key-inject: no event node under %s\n", path);
    return 1;
}
