#include "CLinux.h"

int vitrine_eviocgversion(int fd, int *version) { return ioctl(fd, EVIOCGVERSION, version); }
int vitrine_eviocgname(int fd, char *name, unsigned long length) { return ioctl(fd, EVIOCGNAME(length), name); }
int vitrine_eviocgid(int fd, struct input_id *id) { return ioctl(fd, EVIOCGID, id); }
int vitrine_eviocgbit(int fd, unsigned int type, unsigned char *bits, unsigned long length) {
    return ioctl(fd, EVIOCGBIT(type, length), bits);
}
int vitrine_eviocgprop(int fd, unsigned char *bits, unsigned long length) { return ioctl(fd, EVIOCGPROP(length), bits); }
int vitrine_eviocgabs(int fd, unsigned int axis, struct input_absinfo *info) { return ioctl(fd, EVIOCGABS(axis), info); }
int vitrine_eviocgrab(int fd, int grab) { return ioctl(fd, EVIOCGRAB, grab); }
int vitrine_eviocsclockid(int fd, int clock) { return ioctl(fd, EVIOCSCLOCKID, &clock); }
int vitrine_eviocgkey(int fd, unsigned char *bits, unsigned long length) { return ioctl(fd, EVIOCGKEY(length), bits); }
int vitrine_eviocgmtslots(int fd, int32_t *values, unsigned long count) {
    return ioctl(fd, EVIOCGMTSLOTS(sizeof(int32_t) * (count + 1)), values);
}
