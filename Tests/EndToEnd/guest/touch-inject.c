/*
 * touch-inject: a multitouch touchscreen (protocol B, INPUT_PROP_DIRECT) made with /dev/uinput,
 * driven by commands read one per line from a FIFO, so one device lives for a whole test.
 *
 *     touch-inject FIFO WIDTH HEIGHT
 *
 * The axes are 0..WIDTH-1 and 0..HEIGHT-1 (the screen's pixels). Prints
 * "touch-inject: device /dev/input/eventN" once the device exists, then "ok N COMMAND" after
 * the N-th command is fully sent. Commands:
 *
 *     tap X Y                    down, 40 ms, up
 *     drag X0 Y0 X1 Y1 MS        down, move in 10 ms steps over MS ms, lift at once (still moving)
 *     pinch CX CY R0 R1 MS       two fingers (slots 0 and 1) on a horizontal line through CX CY,
 *                                R0 px either side of it, spread (or closed) to R1 in 10 ms steps
 *                                over MS ms, both lifted at once
 *     down X Y | move X Y | up   one frame each
 *     sleep MS
 *     quit
 *
 * Built by the end-to-end tests with gcc -static -O2.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <dirent.h>
#include <unistd.h>

static int device = -1;
static int tracking_id = 100;

static void die(const char *call) {
    fprintf(stdout, "touch-inject: %s failed: %s\n", call, strerror(errno));
    exit(1);
}

static void emit(int type, int code, int value) {
    struct input_event event;
    memset(&event, 0, sizeof event);
    event.type = type;
    event.code = code;
    event.value = value;
    if (write(device, &event, sizeof event) != sizeof event) die("write /dev/uinput");
}

static void sleep_ms(int ms) {
    struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
    while (nanosleep(&t, &t) == -1 && errno == EINTR) {}
}

static void down(int x, int y) {
    emit(EV_ABS, ABS_MT_SLOT, 0);
    emit(EV_ABS, ABS_MT_TRACKING_ID, tracking_id++);
    emit(EV_ABS, ABS_MT_POSITION_X, x);
    emit(EV_ABS, ABS_MT_POSITION_Y, y);
    emit(EV_KEY, BTN_TOUCH, 1);
    emit(EV_KEY, BTN_TOOL_FINGER, 1);
    emit(EV_ABS, ABS_X, x);
    emit(EV_ABS, ABS_Y, y);
    emit(EV_SYN, SYN_REPORT, 0);
}

static void move(int x, int y) {
    emit(EV_ABS, ABS_MT_SLOT, 0);
    emit(EV_ABS, ABS_MT_POSITION_X, x);
    emit(EV_ABS, ABS_MT_POSITION_Y, y);
    emit(EV_ABS, ABS_X, x);
    emit(EV_ABS, ABS_Y, y);
    emit(EV_SYN, SYN_REPORT, 0);
}

static void up(void) {
    emit(EV_ABS, ABS_MT_SLOT, 0);
    emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
    emit(EV_KEY, BTN_TOUCH, 0);
    emit(EV_KEY, BTN_TOOL_FINGER, 0);
    emit(EV_SYN, SYN_REPORT, 0);
}

/* Two fingers: slot 0 at (x0, y0), slot 1 at (x1, y1); a new contact in each when `starting`. */
static void two(int x0, int y0, int x1, int y1, int starting) {
    emit(EV_ABS, ABS_MT_SLOT, 0);
    if (starting) emit(EV_ABS, ABS_MT_TRACKING_ID, tracking_id++);
    emit(EV_ABS, ABS_MT_POSITION_X, x0);
    emit(EV_ABS, ABS_MT_POSITION_Y, y0);
    emit(EV_ABS, ABS_MT_SLOT, 1);
    if (starting) emit(EV_ABS, ABS_MT_TRACKING_ID, tracking_id++);
    emit(EV_ABS, ABS_MT_POSITION_X, x1);
    emit(EV_ABS, ABS_MT_POSITION_Y, y1);
    if (starting) {
        emit(EV_KEY, BTN_TOUCH, 1);
        emit(EV_KEY, BTN_TOOL_FINGER, 1);
    }
    emit(EV_ABS, ABS_X, x0);
    emit(EV_ABS, ABS_Y, y0);
    emit(EV_SYN, SYN_REPORT, 0);
}

static void two_up(void) {
    emit(EV_ABS, ABS_MT_SLOT, 0);
    emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
    emit(EV_ABS, ABS_MT_SLOT, 1);
    emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
    emit(EV_KEY, BTN_TOUCH, 0);
    emit(EV_KEY, BTN_TOOL_FINGER, 0);
    emit(EV_SYN, SYN_REPORT, 0);
}

static int clamp(int value, int maximum) { return value < 0 ? 0 : value > maximum ? maximum : value; }

static void abs_axis(int code, int maximum) {
    struct uinput_abs_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.code = code;
    setup.absinfo.minimum = 0;
    setup.absinfo.maximum = maximum;
    setup.absinfo.resolution = 10;
    if (ioctl(device, UI_ABS_SETUP, &setup) == -1) die("UI_ABS_SETUP");
}

/* The evdev node of the uinput device: /sys/devices/virtual/input/<sysname>/eventN. */
static void print_event_node(void) {
    char sysname[64] = "", path[160];
    if (ioctl(device, UI_GET_SYSNAME(sizeof sysname), sysname) == -1) die("UI_GET_SYSNAME");
    snprintf(path, sizeof path, "/sys/devices/virtual/input/%s", sysname);
    for (int attempt = 0; attempt < 200; attempt++) {
        DIR *dir = opendir(path);
        if (dir) {
            struct dirent *entry;
            while ((entry = readdir(dir))) {
                if (strncmp(entry->d_name, "event", 5) == 0) {
                    printf("touch-inject: device /dev/input/%s\n", entry->d_name);
                    fflush(stdout);
                    closedir(dir);
                    return;
                }
            }
            closedir(dir);
        }
        sleep_ms(10);
    }
    printf("touch-inject: no event node under %s\n", path);
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: touch-inject FIFO WIDTH HEIGHT\n");
        return 2;
    }
    int width = atoi(argv[2]), height = atoi(argv[3]);
    /* Read-write, so the FIFO never reports end-of-file between two writers. */
    FILE *commands = fopen(argv[1], "r+");
    if (!commands) die("open FIFO");

    device = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
    if (device == -1) die("open /dev/uinput");
    if (ioctl(device, UI_SET_EVBIT, EV_SYN) == -1 || ioctl(device, UI_SET_EVBIT, EV_KEY) == -1 ||
        ioctl(device, UI_SET_EVBIT, EV_ABS) == -1) die("UI_SET_EVBIT");
    if (ioctl(device, UI_SET_KEYBIT, BTN_TOUCH) == -1 || ioctl(device, UI_SET_KEYBIT, BTN_TOOL_FINGER) == -1)
        die("UI_SET_KEYBIT");
    if (ioctl(device, UI_SET_PROPBIT, INPUT_PROP_DIRECT) == -1) die("UI_SET_PROPBIT");
    int axes[] = { ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_TRACKING_ID, ABS_MT_POSITION_X, ABS_MT_POSITION_Y };
    for (unsigned i = 0; i < sizeof axes / sizeof axes[0]; i++)
        if (ioctl(device, UI_SET_ABSBIT, axes[i]) == -1) die("UI_SET_ABSBIT");
    abs_axis(ABS_X, width - 1);
    abs_axis(ABS_Y, height - 1);
    abs_axis(ABS_MT_POSITION_X, width - 1);
    abs_axis(ABS_MT_POSITION_Y, height - 1);
    abs_axis(ABS_MT_SLOT, 9);
    abs_axis(ABS_MT_TRACKING_ID, 65535);

    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x1234;
    setup.id.product = 0x5678;
    snprintf(setup.name, sizeof setup.name, "vitrine e2e touchscreen");
    if (ioctl(device, UI_DEV_SETUP, &setup) == -1) die("UI_DEV_SETUP");
    if (ioctl(device, UI_DEV_CREATE) == -1) die("UI_DEV_CREATE");
    print_event_node();

    char line[256];
    int count = 0;
    while (fgets(line, sizeof line, commands)) {
        line[strcspn(line, "\n")] = 0;
        int x0, y0, x1, y1, ms, cx, cy, r0, r1;
        if (sscanf(line, "tap %d %d", &x0, &y0) == 2) {
            down(x0, y0);
            sleep_ms(40);
            up();
        } else if (sscanf(line, "drag %d %d %d %d %d", &x0, &y0, &x1, &y1, &ms) == 5) {
            int steps = ms / 10 > 0 ? ms / 10 : 1;
            down(x0, y0);
            for (int i = 1; i <= steps; i++) {
                sleep_ms(10);
                move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps);
            }
            up();
        } else if (sscanf(line, "pinch %d %d %d %d %d", &cx, &cy, &r0, &r1, &ms) == 5) {
            int steps = ms / 10 > 0 ? ms / 10 : 1;
            two(clamp(cx - r0, width - 1), cy, clamp(cx + r0, width - 1), cy, 1);
            for (int i = 1; i <= steps; i++) {
                sleep_ms(10);
                int r = r0 + (r1 - r0) * i / steps;
                two(clamp(cx - r, width - 1), cy, clamp(cx + r, width - 1), cy, 0);
            }
            two_up();
        } else if (sscanf(line, "down %d %d", &x0, &y0) == 2) {
            down(x0, y0);
        } else if (sscanf(line, "move %d %d", &x0, &y0) == 2) {
            move(x0, y0);
        } else if (strcmp(line, "up") == 0) {
            up();
        } else if (sscanf(line, "sleep %d", &ms) == 1) {
            sleep_ms(ms);
        } else if (strcmp(line, "quit") == 0) {
            break;
        } else if (line[0]) {
            printf("touch-inject: unknown command \"%s\"\n", line);
            fflush(stdout);
            continue;
        }
        printf("ok %d %s\n", ++count, line);
        fflush(stdout);
    }
    ioctl(device, UI_DEV_DESTROY);
    close(device);
    return 0;
}
