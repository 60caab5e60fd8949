import Config
import Testing
@testable import ConfigFile

/// `[mqtt]` (SPEC §14): off by default; the broker URL, the topic and the credentials checked when
/// the file is read, with the same located messages as every other key.
@Suite struct MQTTSettingsTests {
    @Test func mqttIsOffByDefault() throws {
        let settings = try ConfigLoader.parse("", path: "empty.toml")
        #expect(settings.mqtt == Settings.MQTT())
        #expect(settings.mqtt.broker == nil && settings.mqtt.topic == "vitrine/%hostname%" && settings.mqtt.homeAssistant)
    }

    @Test func brokerURLsWithTheirDefaultPorts() throws {
        #expect(MQTTBroker("mqtt://broker.local") == MQTTBroker(host: "broker.local", port: 1883, tls: false))
        #expect(MQTTBroker("mqtts://broker.local") == MQTTBroker(host: "broker.local", port: 8883, tls: true))
        #expect(MQTTBroker("mqtt://127.0.0.1:1884/") == MQTTBroker(host: "127.0.0.1", port: 1884, tls: false))
        #expect(MQTTBroker("mqtts://[fd00::1]:8884") == MQTTBroker(host: "fd00::1", port: 8884, tls: true))
        #expect(MQTTBroker("mqtts://[fd00::1]")?.description == "mqtts://[fd00::1]:8883")
        let settings = try ConfigLoader.parse("""
            [mqtt]
            broker = "mqtts://ha.example:8883"
            topic = "kiosks/lobby"
            username = "vitrine"
            password_file = "/etc/vitrine/mqtt.password"
            home_assistant = false
            """, path: "a.toml")
        #expect(settings.mqtt.broker == MQTTBroker(host: "ha.example", port: 8883, tls: true))
        #expect(settings.mqtt.topic == "kiosks/lobby" && settings.mqtt.username == "vitrine")
        #expect(settings.mqtt.passwordFile == "/etc/vitrine/mqtt.password" && !settings.mqtt.homeAssistant)
        #expect(try ConfigLoader.parse(settings.describe(), path: "describe.toml") == settings)
    }

    @Test func malformedBrokersAreRefused() {
        for text in ["broker.local", "tcp://broker.local", "MQTT://broker.local", "mqtt://", "mqtt://:1883",
                     "mqtt://broker.local:0", "mqtt://broker.local:65536", "mqtt://broker.local:", "mqtt://user:pw@broker.local",
                     "mqtt://broker.local/topic", "mqtt://bro ker", "mqtt://[fd00::1", "mqtt://[]:1883", "mqtt://.local",
                     "mqtt://broker.local:+1"] {
            #expect(MQTTBroker(text) == nil, "\(text)")
        }
    }

    @Test func badValuesNameTheKeyLineAndWhy() throws {
        do {
            _ = try ConfigLoader.parse("""
                [mqtt]
                broker = "mqtt://user:secret@broker"
                topic = "vitrine/#"
                username = 7
                password_file = "mqtt.password"
                """, path: "bad.toml")
            Issue.record("parsed")
        } catch {
            #expect(error.problems.map(\.line) == [2, 3, 4, 5])
            #expect(error.problems.map(\.kind) == [.badFormat, .badFormat, .wrongType, .badFormat])
            #expect(error.problems[0].message.hasPrefix("`mqtt.broker` must be \"\" or a URL \"mqtt://HOST[:PORT]\""))
            #expect(error.problems[1].message.hasSuffix("got \"vitrine/#\": + and # are wildcards, for subscribing only"))
            #expect(error.problems[3].message == "`mqtt.password_file` must be an absolute file path, or \"\" for none; got \"mqtt.password\"")
        }
        for (topic, why) in [("", "it is empty"), ("vitrine/", "it has an empty level (a leading, trailing or double \"/\")"),
                             ("$SYS/x", "topics beginning with $ are the broker's own"),
                             ("v/%host%", "\"%hostname%\" is the only placeholder")] {
            #expect(SettingsSchema.mqttTopicProblem(topic) == why, "\(topic)")
        }
        #expect(SettingsSchema.mqttTopicProblem("vitrine/%hostname%/x") == nil)
    }

    @Test func aPasswordFileNeedsAUserName() throws {
        do {
            _ = try ConfigLoader.parse("[mqtt]\nbroker = \"mqtt://b\"\npassword_file = \"/etc/vitrine/mqtt.password\"\n", path: "p.toml")
            Issue.record("parsed")
        } catch {
            #expect(error.problems.map(\.line) == [3])
            #expect(error.problems.first?.message
                == "`mqtt.password_file` is set but `mqtt.username` is not: MQTT sends a password only with a user name")
        }
    }
}
