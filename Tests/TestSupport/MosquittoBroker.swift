import Foundation
import Glibc

/// A real mosquitto broker (Debian's) for the MQTT tests, on a free loopback port, with its own
/// config and log in a temporary folder; it can be killed and started again on the same port.
/// `mosquitto_pub` and `mosquitto_sub` speak to it as another client would.
public final class MosquittoBroker: @unchecked Sendable {
    public static let executable = "/usr/sbin/mosquitto"
    public static let publisher = "/usr/bin/mosquitto_pub"
    public static let subscriber = "/usr/bin/mosquitto_sub"

    /// Nil when the broker and its clients are installed; otherwise what a skipped test says.
    public static var missing: String? {
        let programs: [String] = [executable, publisher, subscriber, "/usr/bin/mosquitto_passwd"]
        let absent = programs.filter { access($0, X_OK) != 0 }
        return absent.isEmpty ? nil : "mosquitto is not installed (\(absent.joined(separator: ", "))): apt-get install mosquitto mosquitto-clients"
    }

    public let port: Int
    public let folder: TemporaryDirectory
    /// Lines added to the config after `listener` (TLS files, a password file).
    public let settings: [String]
    private var process: Process?

    /// `settings` replace `allow_anonymous true` when they say `allow_anonymous`.
    public init(settings: [String] = []) throws {
        port = try LoopbackHTTP.freePort()
        folder = try TemporaryDirectory("mosquitto")
        self.settings = settings
    }

    deinit {
        kill()
        folder.remove()
    }

    public var log: String { (try? String(contentsOfFile: folder.file("mosquitto.log"), encoding: .utf8)) ?? "" }

    /// Starts the broker and waits until it accepts connections.
    public func start() throws {
        var lines = ["listener \(port) 127.0.0.1", "persistence false", "log_type all"]
        if !settings.contains(where: { $0.hasPrefix("allow_anonymous") }) { lines.append("allow_anonymous true") }
        // As root it would switch to the user `mosquitto`, who cannot read the test's files.
        if geteuid() == 0 { lines.append("user root") }
        try (lines + settings).joined(separator: "\n").appending("\n")
            .write(toFile: folder.file("mosquitto.conf"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-c", folder.file("mosquitto.conf")]
        FileManager.default.createFile(atPath: folder.file("mosquitto.log"), contents: nil)
        let logFile = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.file("mosquitto.log")))
        logFile.seekToEndOfFile()
        process.standardOutput = logFile
        process.standardError = logFile
        try process.run()
        self.process = process
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            if (try? LoopbackHTTP.Connection(port: port, timeout: 1)) != nil { return }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        throw LoopbackHTTP.Failure(description: "mosquitto did not start on port \(port):\n\(log)")
    }

    /// SIGKILL: the broker vanishes without a word, as a crashed or unplugged one does.
    public func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// A password file with one user, made by mosquitto_passwd.
    public static func passwordFile(in folder: TemporaryDirectory, user: String, password: String) throws -> String {
        let path = folder.file("passwords")
        let result = try ProcessResult.run(["-b", "-c", path, user, password], executable: "/usr/bin/mosquitto_passwd", mergingOutput: true)
        guard result.status == 0 else { throw LoopbackHTTP.Failure(description: "mosquitto_passwd: \(result.stdout)") }
        return path
    }

    /// mosquitto_pub with `arguments` after the port (e.g. ["-t", "a", "-m", "b", "-r"]).
    @discardableResult
    public func publish(_ arguments: [String]) throws -> ProcessResult {
        try ProcessResult.run(["-h", "127.0.0.1", "-p", "\(port)", "-q", "1"] + arguments, executable: Self.publisher, mergingOutput: true)
    }

    /// The messages on `topic` as mosquitto_sub prints them (one a line), until `count` have come
    /// or `seconds` have passed: retained ones come at once. The deadline is kept here, with
    /// SIGKILL: mosquitto_sub's own -W is a SIGALRM, which a test process may have blocked (its
    /// children inherit the mask).
    public func receive(topic: String, count: Int = 1, seconds: Double = 5) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.subscriber)
        process.arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-C", "\(count)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date(timeIntervalSinceNow: seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}

/// A certificate authority and a server certificate for 127.0.0.1 made with openssl, and a CA
/// folder as TLS clients read one (`openssl rehash`), for the mqtts:// tests.
public struct TestCertificates: Sendable {
    public let caCertificate: String
    public let serverCertificate: String
    public let serverKey: String
    /// A folder holding only the CA, hashed.
    public let caFolder: String

    public init(in folder: TemporaryDirectory, name: String = "ca") throws {
        let ca = folder.file("\(name).crt"), caKey = folder.file("\(name).key")
        serverCertificate = folder.file("\(name)-server.crt")
        serverKey = folder.file("\(name)-server.key")
        caCertificate = ca
        caFolder = folder.file("\(name)-store")
        try FileManager.default.createDirectory(atPath: caFolder, withIntermediateDirectories: true)
        let request = folder.file("\(name)-server.csr"), extensions = folder.file("\(name)-server.ext")
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: extensions, atomically: true, encoding: .utf8)
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Vitrine test CA \(name)",
             "-keyout", caKey, "-out", ca],
            ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", serverKey, "-out", request],
            ["x509", "-req", "-in", request, "-CA", ca, "-CAkey", caKey, "-CAcreateserial", "-days", "2",
             "-extfile", extensions, "-out", serverCertificate],
        ]
        for step in steps { try Self.openssl(step) }
        try FileManager.default.copyItem(atPath: ca, toPath: (caFolder as NSString).appendingPathComponent("\(name).pem"))
        try Self.openssl(["rehash", caFolder])
    }

    private static func openssl(_ arguments: [String]) throws {
        let result = try ProcessResult.run(arguments, executable: "/usr/bin/openssl", mergingOutput: true)
        guard result.status == 0 else {
            throw LoopbackHTTP.Failure(description: "openssl \(arguments.first ?? ""): \(result.stdout)")
        }
    }
}
