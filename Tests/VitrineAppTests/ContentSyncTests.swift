import Config
import Foundation
import Glibc
import Linux
import Logging
import Photos
import TestSupport
import Testing
@testable import VitrineApp

/// Content arriving the way fleets send it, by the real tools from Debian's packages (rsync,
/// Syncthing), into the folder of a running kiosk: the watch and the library wired as `run` wires
/// them (`PhotoFolderWatch` → `KioskContent.scan`). At every rescan the test checks what the
/// library shows: each photo whole, byte for byte, never a half-transferred one.
@Suite(.serialized) struct ContentSyncTests {
    /// The kiosk's side: its photo folder, watched, and every library it has shown.
    final class Kiosk {
        let folder: TemporaryDirectory
        let loop: EventLoop
        let content: KioskContent
        var watch: PhotoFolderWatch?
        /// The complete photos by name, as the sending side has them.
        var expected: [String: [UInt8]]
        /// The complete versions names had before (photos changed at the source): whole too.
        var earlier: [String: [UInt8]] = [:]
        /// Each rescan's photo names, in order.
        var shown: [[String]] = []
        /// Photos the library showed before they were complete.
        var halfShown: [String] = []

        init(expecting expected: [String: [UInt8]]) throws {
            folder = try TemporaryDirectory("kiosk")
            loop = try EventLoop()
            self.expected = expected
            var settings = Settings()
            settings.photos.directory = folder.path
            let logger = Logger(label: "test")
            content = KioskContent(settings: settings, configPath: folder.file("none.toml"), logger: logger,
                                   status: ServiceStatus(notifier: nil, logger: logger, now: 0), onDecoded: {})
            watch = PhotoFolderWatch(directory: folder.path, loop: loop, logger: logger) { [unowned self] writing in
                self.rescan(excluding: writing)
            }
        }

        deinit {
            watch?.close()
            loop.close()
            folder.remove()
        }

        /// What `run` does when the folder changed; then each photo shown is compared with its
        /// complete bytes (its size as the scan saw it, and its contents now). A file written again
        /// since the scan (its `FileVersion` is no longer the listed one) is what no decode reads
        /// (`PhotoDecoder.decode(version:)`): counted, not compared.
        func rescan(excluding writing: Set<String>) {
            let photos = content.scan(excluding: writing)
            shown.append(photos.map { ($0.path as NSString).lastPathComponent })
            for photo in photos {
                let name = (photo.path as NSString).lastPathComponent
                let before = try? FileStatus(path: photo.path)
                let bytes = (try? RegularFile.read(photo.path, limit: 1 << 24)) ?? []
                let after = try? FileStatus(path: photo.path)
                guard let whole = expected[name] else {
                    halfShown.append("\(name): not sent")
                    continue
                }
                let listed = photo.picture.version
                guard let before, let after, FileVersion(size: before.size, modified: before.modified) == listed,
                      FileVersion(size: after.size, modified: after.modified) == listed else {
                    changedSinceScan += 1
                    continue
                }
                if ![whole, earlier[name]].contains(where: { $0 != nil && photo.picture.fileSize == $0!.count && bytes == $0! }) {
                    halfShown.append("\(name): \(photo.picture.fileSize) of \(whole.count) bytes")
                }
            }
        }

        /// Photos listed by a rescan and written again before the check read them.
        var changedSinceScan = 0

        var latest: Set<String> { Set(shown.last ?? []) }

        /// Runs the kiosk's loop until `done`, or `seconds` have passed; true when done.
        func run(for seconds: Double, until done: () -> Bool) throws -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !done() {
                guard Date() < deadline else { return false }
                try loop.runOnce(timeout: 0.05)
            }
            return true
        }
    }

    /// `tool` from PATH, or nil with a loud message (scripts/install-deps installs it).
    static func tool(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if access(path, X_OK) == 0 { return path }
        }
        print("SKIPPED: \(name) is not installed; scripts/install-deps installs it (apt-get install \(name))")
        return nil
    }

    static func start(_ executable: String, _ arguments: [String], log: String? = nil,
                      environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let log {
            FileManager.default.createFile(atPath: log, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: log)
            process.standardError = process.standardOutput
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        return process
    }

    /// The sample photos, as a sending folder holds them.
    static func samplePhotos() throws -> [String: [UInt8]] {
        var photos: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: TestPaths.samplePhotos) where name.hasSuffix(".jpg") {
            photos[name] = try RegularFile.read(TestPaths.samplePhotos + "/" + name, limit: 1 << 24)
        }
        return photos
    }

    /// rsync as a fleet's cron job runs it, slowed to ~2 MB/s so the kiosk rescans while files are
    /// on their way: by default through `.NAME.XXXXXX` renamed into place, and with `--inplace`
    /// straight under the photo's own name (what the watch's list of files being written is for).
    @Test(arguments: [["-a"], ["-a", "--inplace"]])
    func rsyncIntoTheWatchedFolderShowsOnlyWholePhotos(options: [String]) throws {
        guard let rsync = Self.tool("rsync") else { return }
        let photos = try Self.samplePhotos()
        let kiosk = try Kiosk(expecting: photos)
        let rsyncRun = try Self.start(rsync, options + ["--bwlimit=2000", TestPaths.samplePhotos + "/", kiosk.folder.path + "/"])
        defer { if rsyncRun.isRunning { rsyncRun.terminate() } }
        let arrived = try kiosk.run(for: 60) { !rsyncRun.isRunning && kiosk.latest == Set(photos.keys) }
        #expect(rsyncRun.terminationStatus == 0)
        #expect(arrived, "the library shows \(kiosk.latest.sorted()), not the \(photos.count) photos sent")
        #expect(kiosk.halfShown == [], "shown before complete")
        // The photos arrived one after another while the kiosk ran, not in one rescan at the end.
        #expect(kiosk.shown.count >= 3, "\(kiosk.shown.count) rescans")
        #expect(Set(kiosk.shown.map(\.count)).count >= 3)
    }

    /// A free TCP port on the loopback.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// One Syncthing instance's own home: keys by `syncthing generate`, then a config of our own
    /// (its ports on the loopback, the shared folder, no discovery, relays, NAT, upgrades or usage
    /// reports).
    struct SyncthingHome {
        let home: String
        let deviceID: String

        init(_ syncthing: String, home: String) throws {
            self.home = home
            let generate = try ContentSyncTests.start(syncthing, ["generate", "--home=\(home)", "--no-default-folder"])
            generate.waitUntilExit()
            let id = Process()
            id.executableURL = URL(fileURLWithPath: syncthing)
            id.arguments = ["serve", "--home=\(home)", "--device-id"]
            let out = Pipe()
            id.standardOutput = out
            try id.run()
            deviceID = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            id.waitUntilExit()
        }

        func configure(folder: String, type: String, listen: Int, gui: Int,
                       devices: [(id: String, name: String, port: Int)]) throws {
            let deviceElements = devices.map { "    <device id=\"\($0.id)\"></device>" }.joined(separator: "\n")
            let peers = devices.map {
                "  <device id=\"\($0.id)\" name=\"\($0.name)\"><address>tcp://127.0.0.1:\($0.port)</address></device>"
            }.joined(separator: "\n")
            try """
                <configuration version="36">
                  <folder id="vitrine-photos" label="photos" path="\(folder)" type="\(type)" rescanIntervalS="3600" fsWatcherEnabled="true" fsWatcherDelayS="1">
                \(deviceElements)
                  </folder>
                \(peers)
                  <gui enabled="true" tls="false"><address>127.0.0.1:\(gui)</address><apikey>vitrine-test</apikey></gui>
                  <options>
                    <listenAddress>tcp://127.0.0.1:\(listen)</listenAddress>
                    <globalAnnounceEnabled>false</globalAnnounceEnabled>
                    <localAnnounceEnabled>false</localAnnounceEnabled>
                    <relaysEnabled>false</relaysEnabled>
                    <natEnabled>false</natEnabled>
                    <startBrowser>false</startBrowser>
                    <reconnectionIntervalS>1</reconnectionIntervalS>
                    <urAccepted>-1</urAccepted>
                    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                    <crashReportingEnabled>false</crashReportingEnabled>
                  </options>
                </configuration>

                """.write(toFile: home + "/config.xml", atomically: true, encoding: .utf8)
        }
    }

    /// Two Syncthing instances on the loopback: a sender and the kiosk (receive-only) sharing one
    /// folder. Photos added on the sending side land in the running kiosk's library, each whole
    /// (Syncthing writes `.syncthing.NAME.tmp` and renames it into place).
    @Test func syncthingBringsAPhotoAddedOnTheSendingSideIntoTheRunningKiosk() throws {
        guard let syncthing = Self.tool("syncthing") else { return }
        let photos = try Self.samplePhotos()
        let kiosk = try Kiosk(expecting: photos)
        let work = try TemporaryDirectory("syncthing")
        defer { work.remove() }
        let sendFolder = work.file("send")
        try FileManager.default.createDirectory(atPath: sendFolder, withIntermediateDirectories: true)
        let sender = try SyncthingHome(syncthing, home: work.file("sender"))
        let receiver = try SyncthingHome(syncthing, home: work.file("kiosk"))
        #expect(sender.deviceID.count == 63 && receiver.deviceID.count == 63)
        let ports = try (0..<4).map { _ in try Self.freePort() }
        let devices = [(id: sender.deviceID, name: "sender", port: ports[0]), (id: receiver.deviceID, name: "kiosk", port: ports[1])]
        try sender.configure(folder: sendFolder, type: "sendonly", listen: ports[0], gui: ports[2], devices: devices)
        try receiver.configure(folder: kiosk.folder.path, type: "receiveonly", listen: ports[1], gui: ports[3], devices: devices)
        let environment = ["STNOUPGRADE": "1", "STNORESTART": "1"]
        var instances: [Process] = []
        defer {
            for instance in instances where instance.isRunning {
                instance.terminate()
                instance.waitUntilExit()
            }
        }
        for home in [sender.home, receiver.home] {
            instances.append(try Self.start(syncthing, ["serve", "--home=\(home)", "--no-browser", "--no-restart"],
                                            log: home + "/syncthing.log", environment: environment))
        }
        // Photos added on the sending side while both run.
        for name in ["03-dragonfly.jpg", "01-lakeside.jpg", "05-sunset-panorama.jpg"] {
            try FileManager.default.copyItem(atPath: TestPaths.samplePhotos + "/" + name, toPath: sendFolder + "/" + name)
        }
        let wanted: Set = ["03-dragonfly.jpg", "01-lakeside.jpg", "05-sunset-panorama.jpg"]
        let arrived = try kiosk.run(for: 120) { kiosk.latest == wanted }
        let logs = [sender.home, receiver.home].map { (try? String(contentsOfFile: $0 + "/syncthing.log", encoding: .utf8)) ?? "" }
        #expect(arrived, "the kiosk's library shows \(kiosk.latest.sorted()); syncthing's logs:\n\(logs.joined(separator: "\n"))")
        #expect(kiosk.halfShown == [], "shown before complete")
        #expect(instances.allSatisfy { $0.isRunning })
    }
}
