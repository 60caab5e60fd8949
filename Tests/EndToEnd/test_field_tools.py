"""The integrator's field tools on a real kernel: `vitrine displays` against virtio-gpu and
`vitrine inputs` against uinput devices (a multitouch touchscreen, a keyboard), as root and as a
user in neither group video nor group input.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_field_tools.py' -v
"""

from __future__ import annotations

import re
import unittest

import kiosk


def block(output: str, head: str) -> str:
    """The lines of `output` from the one starting with `head` to the next unindented one."""
    lines = output.splitlines()
    for index, line in enumerate(lines):
        if line.startswith(head):
            end = next((i for i in range(index + 1, len(lines)) if not lines[i].startswith(" ")), len(lines))
            return "\n".join(lines[index:end])
    raise AssertionError(f"no line starting with {head!r} in:\n{output}")


class FieldToolsTest(kiosk.KioskTestCase):
    guest_tools = ("touch-inject", "notify-listen", "key-inject")

    def vitrine(self, arguments: str, user: str | None = None) -> str:
        """Runs vitrine ARGUMENTS in the guest (as `user` when given); it must exit 0."""
        command = f"/bin/vitrine {arguments}"
        if user:
            command = f"su -s /bin/sh -c '{command}' {user}"
        result = self.machine.run(command, timeout=60)
        self.assertEqual(result.code, 0, f"`{command}` exited {result.code}:\n{result.output}")
        return result.output

    def test_displays_lists_the_virtio_connector_and_the_choice(self) -> None:
        output = self.vitrine("displays --config /etc/vitrine.toml")
        card = block(output, "card /dev/dri/card0: ")
        self.assertIn("driver virtio_gpu", card)
        self.assertRegex(card, r"connector Virtual-1 \(id \d+\): connected")
        # Its preferred mode is the -device's xres x yres (qemu's EDID gives it 75 Hz timings).
        self.assertRegex(card, r"modes: 1280x800@[\d.]+ \(preferred\)")
        self.assertRegex(card, r"monitor \"QEMU Monitor\"")
        self.assertRegex(card, r"properties: DPMS \(id \d+\) On")
        self.assertRegex(card, r"\n  CRTC \d+: ")
        self.assertRegex(card, r"\n  plane \d+ \(Primary\): for CRTC \d+, formats .*XR24")
        self.assertRegex(output, r"run would take: card /dev/dri/card0, connector Virtual-1, mode 1280x800@[\d.]+, CRTC \d+")
        self.assertIn("  mode: the connector's preferred mode (display.mode = auto)", output)
        self.assertIn("the scene is 1280x800", output)

        # A mode the config names (from the connector's list), and one it does not offer.
        self.machine.write_file("/tmp/mode.toml", kiosk.config(display={"mode": "1024x768"}).encode())
        output = self.vitrine("displays --config /tmp/mode.toml")
        self.assertIn("connector Virtual-1, mode 1024x768@60", output)
        self.assertIn("  mode: display.mode = 1024x768", output)
        self.machine.write_file("/tmp/hdmi.toml", kiosk.config(display={"connector": "HDMI-A-9"}).encode())
        output = self.vitrine("displays --config /tmp/hdmi.toml")
        self.assertIn('run would stop: connector "HDMI-A-9" not found; this card has: Virtual-1', output)

    def test_inputs_classifies_a_uinput_touchscreen_and_keyboard(self) -> None:
        machine = self.machine
        machine.check("rm -f /tmp/touch.fifo && mkfifo /tmp/touch.fifo")
        self.spawn("touch", f"/bin/touch-inject /tmp/touch.fifo {kiosk.WIDTH} {kiosk.HEIGHT}")
        touch = kiosk.touch_device(machine)
        self.spawn("keys", "/bin/key-inject")
        keys = machine.wait_for_log("keys", "key-inject: device ").split("key-inject: device ", 1)[1].split()[0]

        output = self.vitrine("inputs --config /etc/vitrine.toml")
        screen = block(output, f"{touch}: ")
        self.assertIn('"vitrine e2e touchscreen"', screen)
        self.assertIn("bus virtual (0x0006), vendor 0x1234, product 0x5678", screen)
        self.assertIn("properties: direct", screen)
        self.assertIn(f"ABS_MT_POSITION_X: 0...{kiosk.WIDTH - 1}, resolution 10/mm", screen)
        self.assertIn(f"ABS_MT_POSITION_Y: 0...{kiosk.HEIGHT - 1}, resolution 10/mm", screen)
        self.assertIn("run: touch screen, multitouch protocol B, 10 slots; mapping: follows the display's rotation", screen)
        keyboard = block(output, f"{keys}: ")
        self.assertIn('"vitrine e2e keyboard"', keyboard)
        self.assertIn("keys: 57 keyboard keys (Esc yes, Back no)", keyboard)
        self.assertIn("run: keys: Esc/Back close the photo", keyboard)
        self.assertNotIn("no touch screen for run", output)

        # With display.rotation = 90 the mapping is known without the display.
        self.machine.write_file("/tmp/turned.toml", kiosk.config(display={"rotation": 90}).encode())
        turned = block(self.vitrine("inputs --config /tmp/turned.toml"), f"{touch}: ")
        self.assertIn("mapping: rotation 90° (follows display.rotation)", turned)
        self.assertIn("the device's (x min, y min) is the screen's bottom left", turned)

        # input.device names the keyboard's node: the touchscreen is left out.
        self.machine.write_file("/tmp/named.toml", kiosk.config(input={"device": keys}).encode())
        named = self.vitrine("inputs --config /tmp/named.toml")
        self.assertIn(f"run: ignored: input.device names {keys}", block(named, f"{touch}: "))

    def test_without_permission_the_group_to_join_is_named(self) -> None:
        machine = self.machine
        machine.check("echo 'nobody:x:65534:65534::/:/bin/sh' >> /etc/passwd")
        machine.check("chgrp video /dev/dri/card0 && chmod 660 /dev/dri/card0"
                      " && chgrp input /dev/input/event* && chmod 660 /dev/input/event*")
        output = self.vitrine("displays --config /etc/vitrine.toml", user="nobody")
        self.assertIn("card /dev/dri/card0: cannot open: permission denied (EACCES) on /dev/dri/card0,"
                      " which belongs to group video: add the user to group video", output)
        self.assertIn("run would stop: permission denied (EACCES) on /dev/dri/card0", output)
        output = self.vitrine("inputs --config /etc/vitrine.toml", user="nobody")
        self.assertRegex(output, r"/dev/input/event\d+: cannot open: permission denied \(EACCES\) on "
                                 r"/dev/input/event\d+, which belongs to group input: add the user to group input")
        self.assertIn("no touch screen for run", output)


if __name__ == "__main__":
    unittest.main()
