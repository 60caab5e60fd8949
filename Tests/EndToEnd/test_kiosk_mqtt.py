"""MQTT and Home Assistant discovery (SPEC §14) of `vitrine run` on a real display, in qemu, with a
real mosquitto broker on the guest's loopback: mosquitto_sub sees the retained discovery config
and state, mosquitto_pub of the discovered switch's payload_off turns the screen off (seen in
/status), a garbage command is answered on TOPIC/error and changes nothing, the broker killed and
started again: the kiosk draws on, reconnects and publishes again, and says so once; killed, the
kiosk's last will says offline.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_kiosk_mqtt.py' -v
"""

from __future__ import annotations

import json
import shlex
import shutil
import time
import unittest

import kiosk
import vm
from kiosk import GridLayout, grid_problems

FOUR = GridLayout(columns=4, spacing=4)
COUNT = len(kiosk.PHOTOS)
URL = "http://127.0.0.1:9180"
TOKEN = "guest-token-mqtt"
HOST = "kiosk1"
TOPIC = f"vitrine/{HOST}"
NODE = f"vitrine__{HOST}"  # the topic escaped: "/" is "__" (MQTTTopics.nodeID)
BROKER_CONFIG = b"""listener 1883 127.0.0.1
allow_anonymous true
persistence false
user root
log_dest stderr
"""
TOOLS = {name: shutil.which(name) for name in ("mosquitto", "mosquitto_sub", "mosquitto_pub")}


@unittest.skipUnless(all(TOOLS.values()), "mosquitto, mosquitto_sub and mosquitto_pub are needed (scripts/install-deps)")
class KioskMQTTTest(kiosk.KioskTestCase):
    base_config = kiosk.config(remote={"listen": "127.0.0.1:9180", "token_file": "/etc/remote.token"},
                               mqtt={"broker": "mqtt://127.0.0.1:1883", "topic": "vitrine/%hostname%"})
    extra_files = {"/etc/mosquitto.conf": BROKER_CONFIG, "/etc/remote.token": (TOKEN + "\n").encode()}
    extra_binaries = {f"/bin/{name}": path for name, path in TOOLS.items() if path}

    def status(self) -> dict:
        return json.loads(self.machine.check(f"wget -q -O - {URL}/status"))

    def subscribe(self, topic: str, count: int, timeout: int = 20) -> list[tuple[str, str]]:
        """The first `count` messages on `topic` (retained ones at once), as (topic, payload)."""
        output = self.machine.check(f"mosquitto_sub -h 127.0.0.1 -v -C {count} -W {timeout} -t {shlex.quote(topic)}",
                                    timeout=timeout + 10)
        messages = []
        for line in output.splitlines():
            topic_, _, payload = line.partition(" ")
            messages.append((topic_, payload))
        return messages

    def publish(self, topic: str, payload: str) -> None:
        self.machine.check(f"mosquitto_pub -h 127.0.0.1 -q 1 -t {shlex.quote(topic)} -m {shlex.quote(payload)}")

    def start_broker(self) -> None:
        self.spawn("broker", "mosquitto -c /etc/mosquitto.conf")
        self.machine.wait_for_log("broker", "running", timeout=10)

    def test_home_assistant_sees_the_kiosk_and_drives_it(self) -> None:
        machine = self.machine
        machine.check(f"ip link set lo up && hostname {HOST}")
        self.start_broker()
        self.start_vitrine()
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), timeout=60, what="the grid")

        # The retained discovery config: one device, its seven entities.
        configs = dict(self.subscribe(f"homeassistant/+/{NODE}/+/config", 7))
        self.assertEqual(sorted(configs), sorted(f"homeassistant/{component}/{NODE}/{name}/config" for component, name in [
            ("switch", "screen"), ("button", "next"), ("button", "previous"), ("button", "reload"),
            ("sensor", "photo_count"), ("sensor", "current_photo"), ("sensor", "frame_time_p99")]))
        switch = json.loads(configs[f"homeassistant/switch/{NODE}/screen/config"])
        self.assertEqual(switch["command_topic"], f"{TOPIC}/command")
        self.assertEqual(switch["device"]["model"], "Vitrine")
        self.assertEqual(self.subscribe(f"{TOPIC}/availability", 1), [(f"{TOPIC}/availability", "online")])

        # The retained state, as /status says.
        state = json.loads(self.subscribe(f"{TOPIC}/state", 1)[0][1])
        self.assertEqual((state["photo_count"], state["screen_on"], state["display_connected"], state["mode"]),
                         (COUNT, True, True, "grid"), state)

        # The switch's payload_off, as Home Assistant sends it: the screen goes off.
        self.publish(switch["command_topic"], switch["payload_off"])
        self.wait_for_status(lambda status: not status["screen_on"], "screen off by MQTT")
        machine.wait_for_log("vitrine", "remote: display off", timeout=10)
        state = json.loads(self.subscribe(f"{TOPIC}/state", 1)[0][1])
        deadline = time.monotonic() + 5
        while state["screen_on"] and time.monotonic() < deadline:
            time.sleep(0.5)
            state = json.loads(self.subscribe(f"{TOPIC}/state", 1)[0][1])
        self.assertFalse(state["screen_on"], "the retained state follows within a second or so")

        # Garbage: answered on TOPIC/error, nothing done.
        self.spawn("errors", f"mosquitto_sub -h 127.0.0.1 -C 1 -W 30 -t {TOPIC}/error")
        time.sleep(1)  # subscribed before the garbage arrives (the error is not retained)
        self.publish(f"{TOPIC}/command", "\x01garbage{{{")
        machine.wait_for_log("errors", "error", timeout=20)
        error = json.loads(machine.log_of("errors").strip().splitlines()[-1])
        self.assertEqual(error["command"], "\x01garbage{{{")
        self.assertIn("not a JSON object", error["error"])
        self.assertIn("mqtt: command refused", machine.log_of("vitrine"))
        status = self.status()
        self.assertEqual((status["screen_on"], status["state"]), (False, "display_off"))

        # The switch's payload_on wakes it.
        self.publish(switch["command_topic"], switch["payload_on"])
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), what="the grid after payload_on")

        # The broker goes away: the kiosk draws on (a remote action through HTTP is taken, the
        # screen follows), then comes back: the kiosk connects again and publishes again.
        machine.kill("broker")
        time.sleep(3)
        frames = self.frames()
        machine.check(f"wget -q -O - --header {shlex.quote('Authorization: Bearer ' + TOKEN)} "
                      f"--post-data '{{\"action\":\"open\",\"index\":1}}' {URL}/control")
        time.sleep(2)
        self.assertGreater(self.frames(), frames, "the kiosk stopped drawing without its broker")
        self.start_broker()
        self.assertEqual(self.subscribe(f"{TOPIC}/availability", 1, timeout=40), [(f"{TOPIC}/availability", "online")])
        self.assertEqual(len(self.subscribe(f"homeassistant/+/{NODE}/+/config", 7)), 7)
        state = json.loads(self.subscribe(f"{TOPIC}/state", 1)[0][1])
        self.assertEqual(state["photo_count"], COUNT)
        log = machine.log_of("vitrine")
        self.reconnect_said_once(log)

        # Killed: the broker publishes the last will.
        self.spawn("will", f"mosquitto_sub -h 127.0.0.1 -C 2 -W 30 -t {TOPIC}/availability")
        machine.wait_for_log("will", "online", timeout=10)
        machine.kill("vitrine")
        machine.wait_for_log("will", "offline", timeout=20)

    def frames(self) -> int:
        metrics = self.machine.check(f"wget -q -O - {URL}/metrics")
        for line in metrics.splitlines():
            if line.startswith("vitrine_frames_total "):
                return int(line.split()[1])
        self.fail("no vitrine_frames_total in /metrics")

    def reconnect_said_once(self, log: str) -> None:
        """The broker's going and coming back are a line each, however many attempts in between."""
        lines = [line for line in log.splitlines() if "mqtt:" in line]
        self.assertEqual(len([line for line in lines if "mqtt: lost the connection" in line]), 1, "\n".join(lines))
        self.assertEqual(len([line for line in lines if " again after " in line]), 1, "\n".join(lines))
        self.assertFalse([line for line in lines if "cannot connect" in line], "\n".join(lines))


if __name__ == "__main__":
    unittest.main()
