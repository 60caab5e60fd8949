import Config
import Foundation
import Geometry
import Glibc
import Linux
import Logging
import Photos
import RemoteControl
import RemoteMQTT
import Rendering
import RunLoopRules
import Scene

/// `vitrine-bench mqtt`: does a broker flooding the kiosk with commands disturb the frame loop
/// (SPEC §14)? The same drag through the grid as `remote` (the real renderer at 60 Hz, 1920x1080,
/// the snapshot published after every frame and the queued actions taken, as `run` does), in the
/// same process as an `MQTTClient` with the kiosk's `MQTTBridge` as `run` has them (commands
/// through `RemoteState.submit(json:)`, a refusal answered on TOPIC/error, the state published from
/// the bridge's timer thread). Each round draws the drag while
/// `mosquitto_pub -l` (at nice 19: it stands for other machines) floods TOPIC/command with valid
/// and garbage commands until the client has received N of them, then as many frames with the
/// broker quiet, and compares the frame-time p99 of the two.
///
///     vitrine-bench mqtt [--messages 20000] [--rounds 6] [--samples DIR]
///
/// It starts its own mosquitto (Debian's) on a free loopback port.
enum MQTTBenchmark {
    static let topic = "vitrine/bench"

    /// Half valid (two of them refused while the loop's queue is full), half what a broken or
    /// hostile publisher sends: not JSON, an unknown action, an index out of range, a wrong type,
    /// a kilobyte of nonsense, a binary zero.
    static let commands: [String] = [
        #"{"action":"next"}"#, #"{"action":"previous"}"#, #"{"action":"open","index":3}"#,
        #"{"action":"screen_on"}"#, #"{"action":"close"}"#,
        "{", "not json at all", #"{"action":"explode"}"#, #"{"action":"open","index":999999}"#,
        #"{"action":7}"#, String(repeating: "\u{7F}[garbage]", count: 100),
    ]

    static func run(arguments: [String]) throws {
        setvbuf(stdout, nil, _IOLBF, 0)
        // The flood's pipe: a write after mosquitto_pub has gone is EPIPE, not the end of the bench.
        signal(SIGPIPE, SIG_IGN)
        let messages = Int(option("--messages", in: arguments) ?? "") ?? 20_000
        let rounds = Int(option("--rounds", in: arguments) ?? "") ?? 6
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let samples = option("--samples", in: arguments) ?? packageRoot + "/Samples/photos"
        for program in ["/usr/sbin/mosquitto", "/usr/bin/mosquitto_pub"] where access(program, X_OK) != 0 {
            throw RemoteBenchmark.BenchError("\(program) is not installed (apt-get install mosquitto mosquitto-clients)")
        }

        let (viewer, photos, logger) = try RemoteBenchmark.viewer(samples: samples)
        let frames = RemoteBenchmark.dragFrames(viewer)

        let broker = try BenchBroker()
        defer { broker.stop() }
        print("vitrine-bench mqtt: a drag through the grid, \(frames.count) frames at 60 Hz, 1920x1080, "
              + "\(photos.count) photos; \(rounds) rounds of at least \(messages) commands from mosquitto_pub -l "
              + "(QoS 1, \(commands.count) kinds, half of them garbage) through mosquitto \(broker.port) to the client")

        let state = RemoteState(version: "bench", wake: {})
        let sink = CommandSink()
        let client = try MQTTClient(
            options: MQTTClientOptions(host: "127.0.0.1", port: broker.port, clientID: "vitrine-bench",
                                       will: MQTTMessage(topic: "\(topic)/availability", text: "offline", retain: true)),
            logger: logger)
        let bridge = MQTTBridge(topics: MQTTTopics(template: topic, hostname: "bench"), discovery: nil, state: state,
                                connection: client, closeConnection: { client.stop() }, logger: logger)
        sink.attach(bridge)
        client.start(delegate: sink)
        bridge.startTimer()
        defer { bridge.stop() }
        let deadline = Date().addingTimeInterval(10)
        while !sink.subscribed, Date() < deadline { usleep(10_000) }
        guard sink.subscribed else { throw RemoteBenchmark.BenchError("the client did not connect to the broker") }
        usleep(200_000)  // the SUBACK

        var loop = RemoteBenchmark.FrameLoop(viewer: viewer, state: state)
        loop.takesActions = true
        // Warm-up: caches, the client's thread, the renderer's first frames.
        _ = loop.draw(frames, while: { false }, atLeast: frames.count)
        _ = try flood(broker: broker, messages: 2000, sink: sink, alongside: &loop, frames: frames)

        var quiet = FrameStatistics(), loaded = FrameStatistics()
        var quietCPU = FrameStatistics(), loadedCPU = FrameStatistics()
        var roundRatios: [Double] = []
        for round in 1...rounds {
            var quietRound = round % 2 == 0 ? loop.draw(frames, while: { false }, atLeast: frames.count) : RemoteBenchmark.Round()
            let result = try flood(broker: broker, messages: messages, sink: sink, alongside: &loop, frames: frames)
            let loadedRound = result.frames
            if round % 2 == 1 { quietRound = loop.draw(frames, while: { false }, atLeast: loadedRound.framesDrawn) }
            for time in loadedRound.times { loaded.record(composeTime: time, missedVblanks: 0) }
            for time in quietRound.times { quiet.record(composeTime: time, missedVblanks: 0) }
            for time in loadedRound.cpuTimes { loadedCPU.record(composeTime: time, missedVblanks: 0) }
            for time in quietRound.cpuTimes { quietCPU.record(composeTime: time, missedVblanks: 0) }
            roundRatios.append(RemoteBenchmark.Round.p99(loadedRound.times) / max(RemoteBenchmark.Round.p99(quietRound.times), 1e-9))
            print(String(format: "round %d: %@ in %.2f s (%.0f a second); frames %d, p99 quiet %.2f ms, with the flood %.2f ms",
                         round, result.summary, result.seconds, Double(result.received) / max(result.seconds, 1e-9),
                         loadedRound.framesDrawn, RemoteBenchmark.Round.p99(quietRound.times) * 1000,
                         RemoteBenchmark.Round.p99(loadedRound.times) * 1000))
        }
        let wall = RemoteBenchmark.p99Ratio(loaded, quiet), cpu = RemoteBenchmark.p99Ratio(loadedCPU, quietCPU)
        let median = roundRatios.sorted()[roundRatios.count / 2]
        print("quiet:       \(quiet.drawSummary)")
        print("with flood:  \(loaded.drawSummary)")
        print("the frame thread's CPU time (CLOCK_THREAD_CPUTIME_ID):")
        print("quiet:       \(quietCPU.drawSummary)")
        print("with flood:  \(loadedCPU.drawSummary)")
        print(String(format: "frame-time p99 with the flood / without: %.3f (%+.1f%%; goal at most +10%%); median of the "
                     + "rounds' ratios %.3f; CPU time p99 ratio %.3f; the loop took %d actions", wall, (wall - 1) * 100,
                     median, cpu, loop.actionsTaken))
    }

    struct FloodResult {
        var summary: String
        var seconds: Double
        var received: Int
        var frames: RemoteBenchmark.Round
    }

    /// Starts `mosquitto_pub -l` fed by a thread writing the commands round and round, and draws
    /// the drag over and over until the client has received `messages` more; then stops it.
    static func flood(broker: BenchBroker, messages: Int, sink: CommandSink,
                      alongside loop: inout RemoteBenchmark.FrameLoop, frames: [SceneFrame]) throws -> FloodResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
        process.arguments = ["-n", "19", "/usr/bin/mosquitto_pub", "-h", "127.0.0.1", "-p", "\(broker.port)",
                             "-q", "1", "-t", "\(topic)/command", "-l"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let before = sink.counts
        let target = before.received + messages
        let start = Date()
        try process.run()
        let writer = input.fileHandleForWriting.fileDescriptor
        let fed = DispatchSemaphore(value: 0)
        let feeding = Thread {
            let block = Array((commands.joined(separator: "\n") + "\n").utf8)
            while block.withUnsafeBytes({ Glibc.write(writer, $0.baseAddress, $0.count) }) >= 0 {}
            fed.signal()  // EPIPE: mosquitto_pub is gone
        }
        feeding.start()
        let round = loop.draw(frames, while: { process.isRunning && sink.counts.received < target }, atLeast: frames.count)
        let seconds = Date().timeIntervalSince(start)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        fed.wait()
        try? input.fileHandleForWriting.close()
        let after = sink.counts
        let received = after.received - before.received
        return FloodResult(
            summary: "received \(received)",
            seconds: seconds, received: received, frames: round)
    }

    /// The kiosk's own `MQTTBridge` (commands through `RemoteState.submit(json:)`, refusals on
    /// TOPIC/error, the state from its timer thread), as the client's delegate; the bench only
    /// counts what reaches it.
    final class CommandSink: MQTTConnectionDelegate, @unchecked Sendable {
        struct Counts { var received = 0 }

        private var bridge: MQTTBridge?
        private let lock = NSLock()
        private var totals = Counts()
        private var isSubscribed = false

        /// Set once, before the client starts.
        func attach(_ bridge: MQTTBridge) { self.bridge = bridge }

        var counts: Counts { lock.withLock { totals } }
        var subscribed: Bool { lock.withLock { isSubscribed } }

        func connected(_ connection: MQTTConnection) {
            bridge?.connected(connection)
            lock.withLock { isSubscribed = true }
        }

        func disconnected(_ connection: MQTTConnection, reason: String) {
            bridge?.disconnected(connection, reason: reason)
            lock.withLock { isSubscribed = false }
        }

        func received(_ message: MQTTMessage, on connection: MQTTConnection) {
            bridge?.received(message, on: connection)
            lock.withLock { totals.received += 1 }
        }
    }

    /// The bench's own mosquitto on a free loopback port, its config in a temporary folder.
    final class BenchBroker {
        let port: Int
        private let folder: String
        private let process = Process()

        init() throws {
            port = try Self.freePort()
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-bench-mqtt-\(getpid())").path
            try FileName.makeDirectories(folder)
            var lines = ["listener \(port) 127.0.0.1", "allow_anonymous true", "persistence false"]
            if geteuid() == 0 { lines.append("user root") }
            let config = folder + "/mosquitto.conf"
            try AtomicFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: config)
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
            process.arguments = ["-c", config]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(300_000)
            guard process.isRunning else { throw RemoteBenchmark.BenchError("mosquitto did not start") }
        }

        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: folder)
        }

        static func freePort() throws -> Int {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let found = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            guard found else { throw RemoteBenchmark.BenchError("no free loopback port: errno \(errno)") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }
}
