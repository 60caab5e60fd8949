import Config
import Testing
@testable import ConfigFile

/// `[remote]` (SPEC §9): off by default, an address checked when the file is read, with the same
/// messages as every other key.
@Suite struct RemoteSettingsTests {
    @Test func remoteIsOffByDefault() throws {
        let settings = try ConfigLoader.parse("", path: "empty.toml")
        #expect(settings.remote.listen == nil)
        #expect(settings.remote.tokenFile == "/etc/vitrine/remote.token")
        #expect(try ConfigLoader.parse("[remote]\nlisten = \"\"\n", path: "off.toml").remote.listen == nil)
    }

    @Test func listenTakesIPv4IPv6AndLocalhost() throws {
        let v4 = try ConfigLoader.parse("[remote]\nlisten = \"127.0.0.1:9180\"\ntoken_file = \"/run/t\"\n", path: "a.toml")
        #expect(v4.remote.listen == ListenAddress(host: "127.0.0.1", port: 9180))
        #expect(v4.remote.tokenFile == "/run/t")
        let v6 = try ConfigLoader.parse("[remote]\nlisten = \"[::]:9180\"\n", path: "b.toml")
        #expect(v6.remote.listen == ListenAddress(host: "::", port: 9180))
        #expect(v6.remote.listen?.isIPv6 == true)
        #expect(ListenAddress("localhost:80") == ListenAddress(host: "localhost", port: 80))
        #expect(ListenAddress("[fe80::1]:65535")?.host == "fe80::1")
        #expect(ListenAddress("[::ffff:192.0.2.1]:1")?.description == "[::ffff:192.0.2.1]:1")
    }

    @Test func malformedAddressesAreRefused() {
        for text in ["9180", ":9180", "127.0.0.1", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:+80",
                     "256.0.0.1:80", "1.2.3:80", "::1:9180", "[]:80", "[::1:80", "[1:::2]:80", "[1::2::3]:80",
                     "example.com:80", " 127.0.0.1:80", "127.0.0.1:80 "] {
            #expect(ListenAddress(text) == nil, "\(text)")
        }
    }

    @Test func badValuesNameTheKeyAndLine() throws {
        do {
            _ = try ConfigLoader.parse("[remote]\nlisten = \"0.0.0.0\"\ntoken_file = \"remote.token\"\n", path: "bad.toml")
            Issue.record("parsed")
        } catch {
            #expect(error.problems.map(\.kind) == [.badFormat, .badFormat])
            #expect(error.problems.map(\.line) == [2, 3])
            #expect(error.problems[0].message
                == "`remote.listen` must be \"\" or an address \"HOST:PORT\" such as \"127.0.0.1:9180\" or \"[::]:9180\"; got \"0.0.0.0\"")
            #expect(error.problems[1].message == "`remote.token_file` must be an absolute file path; got \"remote.token\"")
        }
        do {
            _ = try ConfigLoader.parse("[remote]\nlisten = 9180\n", path: "type.toml")
            Issue.record("parsed")
        } catch {
            #expect(error.problems.map(\.kind) == [.wrongType])
        }
    }

    @Test func describeWritesRemoteBack() throws {
        var settings = Settings()
        settings.remote.listen = ListenAddress(host: "::", port: 9180)
        settings.remote.tokenFile = "/etc/vitrine/other.token"
        let text = settings.describe()
        #expect(text.contains("[remote]\nlisten = \"[::]:9180\"\n"))
        #expect(try ConfigLoader.parse(text, path: "describe.toml") == settings)
        #expect(Settings().describe().contains("listen = \"\"\n"))
    }
}
