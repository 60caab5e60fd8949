import Foundation
import TestSupport
import Testing

/// `vitrine check-config` and `vitrine run` as an integrator meets them.
@Suite struct CommandLineTests {
    @Test func aConfigWithAMistakeNamesTheLineAndKeyAndExitsWith2() throws {
        let folder = try TestPaths.temporaryDirectory("config")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/vitrine.toml"
        try "[grid]\ncolums = 5\nspacing = \"wide\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ProcessResult.run(["check-config", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(path):2"))
        #expect(result.stderr.contains("did you mean `columns`"))
        #expect(result.stderr.contains("\(path):3"))
        #expect(result.stdout.isEmpty)
    }

    @Test func theExampleConfigChecksCleanAndPrintsEveryTable() throws {
        let result = try ProcessResult.run(["check-config", TestPaths.exampleConfig])
        #expect(result.status == 0, "\(result.stderr)")
        for table in ["[display]", "[input]", "[photos]", "[grid]", "[pager]", "[dismiss]", "[animation]", "[kiosk]", "[cache]", "[log]"] {
            #expect(result.stdout.contains(table))
        }
    }

    /// A fleet's shared file and one kiosk's drop-ins, as `check-config` shows them.
    @Test func checkConfigReadsTheDropInsAndSaysWhereEachValueCameFrom() throws {
        let folder = try TemporaryDirectory("dropins")
        defer { folder.remove() }
        let main = folder.file("vitrine.toml")
        try "[grid]\ncolumns = 4\nspacing = 6\n".write(toFile: main, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: main + ".d", withIntermediateDirectories: true)
        try "[grid]\ncolumns = 3\n".write(toFile: main + ".d/50-kiosk.toml", atomically: true, encoding: .utf8)
        try "[grid]\ncolumns = 2\n".write(toFile: main + ".d/20-site.toml", atomically: true, encoding: .utf8)
        let result = try ProcessResult.run(["check-config", main])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("# read, in order: \(main), \(main).d/20-site.toml, \(main).d/50-kiosk.toml\n"))
        #expect(result.stdout.contains("\ncolumns = 3  # \(main).d/50-kiosk.toml:2\n"))
        #expect(result.stdout.contains("\nspacing = 6.0  # \(main):3\n"))
        #expect(result.stdout.contains("\ncolumns = 3  # \(main).d/50-kiosk.toml:2\n"))
        #expect(result.stdout.contains("\nidle_timeout = 120.0  # default\n"))

        // A mistake in a drop-in names the drop-in.
        try "[grid]\ncolumns = 30\n".write(toFile: main + ".d/60-typo.toml", atomically: true, encoding: .utf8)
        let broken = try ProcessResult.run(["check-config", main])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("\(main).d/60-typo.toml:2:1: `grid.columns` = 30 is out of range 1...12"))
    }

    @Test func aMissingConfigNamedOnTheCommandLineIsAnError() throws {
        let result = try ProcessResult.run(["run", "--config", "/nonexistent/vitrine.toml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/vitrine.toml"))
    }

    @Test func theDemoRendersTheTourHeadlessAndSaysWhere() throws {
        let folder = try TestPaths.temporaryDirectory("tour")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/vitrine.toml"
        try "[photos]\ndirectory = \"\(TestPaths.samplePhotos)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try ProcessResult.run(["demo", "--config", config, "--out", folder + "/tour", "--size", "960x540"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(folder + "/tour"))
        let pngs = try FileManager.default.contentsOfDirectory(atPath: folder + "/tour").filter { $0.hasSuffix(".png") }
        #expect(pngs.count >= 10)
    }

    /// `vitrine run` is the service and nothing else (SPEC §7): on a machine with no display it
    /// says so in the log and in STATUS=, waits, and stops cleanly on SIGTERM. It renders no tour.
    /// The library is scanned all the same (SPEC §9): the remote server tells the photo count and
    /// the skipped files, so an alert on an empty kiosk does not fire for a panel that is off.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/dri"), "this machine has a display"))
    func runWithoutADisplayWaitsForOneAndCountsThePhotos() throws {
        let folder = try TestPaths.temporaryDirectory("wait")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        for name in ["01-lakeside.jpg", "02-portrait.jpg", "03-dragonfly.jpg", "04-flower.jpg"] {
            try FileManager.default.copyItem(atPath: TestPaths.samplePhotos + "/" + name, toPath: photos + "/" + name)
        }
        try Data().write(to: URL(fileURLWithPath: photos + "/05-empty.jpg"))
        let config = folder + "/vitrine.toml"
        let port = try LoopbackHTTP.freePort()
        try "[photos]\ndirectory = \"\(photos)\"\n[remote]\nlisten = \"127.0.0.1:\(port)\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let listener = try NotifyListener(path: folder + "/notify")
        let run = try RunningProcess(["run", "--config", config], environment: ["NOTIFY_SOCKET": listener.path],
                                     currentDirectory: folder)
        let status = listener.waitFor { $0.contains("STATUS=waiting for a display") }
        #expect(status != nil, "\(listener.messages)")
        #expect(!listener.messages.contains { $0.contains("READY=1") })

        var answer: (status: Int, body: String)?
        for _ in 0..<100 where answer?.status != 200 {
            answer = try? LoopbackHTTP.get(port, "/status")
            if answer?.status != 200 { usleep(100_000) }
        }
        let document = try #require(answer.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body.utf8)) } as? [String: Any])
        #expect(document["state"] as? String == "waiting_for_display")
        #expect(document["photo_count"] as? Int == 4, "\(document)")
        let metrics = try LoopbackHTTP.get(port, "/metrics").body
        #expect(metrics.contains("\nvitrine_photos 4\n"), "\(metrics)")
        #expect(metrics.contains("\nvitrine_photos_skipped{reason=\"empty\"} 1\n"), "\(metrics)")
        run.signal(SIGTERM)
        let exit = run.wait()
        #expect(exit.status == 0, "\(exit.stderr)")
        #expect(exit.stderr.contains("waiting for a display"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/vitrine-tour"))
    }

    /// Signals are blocked from `main`'s first statement (issue #22): a SIGHUP sent at once and
    /// again and again through the first 50 ms of `run` is a reload, never the default action's
    /// exit (which systemd would count as clean), and SIGTERM still ends it with status 0.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/dri"), "this machine has a display"))
    func aSIGHUPStormFromTheFirstMillisecondReloadsAndSIGTERMStillStops() throws {
        let folder = try TestPaths.temporaryDirectory("hup")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/vitrine.toml"
        try "[photos]\ndirectory = \"\(TestPaths.samplePhotos)\"\n[log]\nlevel = \"info\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        for attempt in 0..<5 {
            let listener = try NotifyListener(path: folder + "/notify-\(attempt)")
            let run = try RunningProcess(["run", "--config", config], environment: ["NOTIFY_SOCKET": listener.path],
                                         currentDirectory: folder)
            let start = Date()
            while Date().timeIntervalSince(start) < 0.05 {
                run.signal(SIGHUP)
                usleep(100)
            }
            let status = listener.waitFor { $0.contains("STATUS=waiting for a display") }
            #expect(status != nil, "attempt \(attempt): \(listener.messages)")
            // The reload reads off the loop: READY=1 says it is done (a SIGTERM before would drop it).
            let reloaded = listener.waitFor(timeout: 60) { $0.contains("READY=1") }
            #expect(reloaded != nil, "attempt \(attempt): \(listener.messages)")
            run.signal(SIGTERM)
            let exit = run.wait()
            #expect(exit.status == 0, "attempt \(attempt): \(exit.stderr)")
            #expect(exit.stderr.contains("SIGHUP: configuration reloaded"), "attempt \(attempt): \(exit.stderr)")
            #expect(exit.stderr.contains("SIGTERM: stopping"), "attempt \(attempt): \(exit.stderr)")
        }
    }

    /// Signals are blocked before any shared library's initialiser runs (issue #22), not only from
    /// `main`: a SIGHUP raised by the first initialiser the dynamic loader calls after the
    /// executable's preinit entry (an LD_PRELOAD library's constructor, which runs before
    /// libswiftCore's, Foundation's and every other library's) is held for `run` instead of killing
    /// it, here with its own status 2 for a missing config. The child starts with nothing blocked
    /// and SIGHUP at its default, so only the executable itself can have blocked it. (A signal sent
    /// before the loader has finished mapping and relocating, the first millisecond or two, still
    /// kills it: no code of the program runs before that.)
    @Test func aSIGHUPFromTheFirstLibraryInitialiserDoesNotKillRun() throws {
        let folder = try TemporaryDirectory("early-hup")
        defer { folder.remove() }
        let source = folder.file("hup.c"), library = folder.file("hup.so")
        try """
            #include <signal.h>
            #include <unistd.h>
            __attribute__((constructor)) static void hup(void) { kill(getpid(), SIGHUP); }
            """.write(toFile: source, atomically: true, encoding: .utf8)
        let compiler = ["/usr/bin/cc", "/usr/bin/clang", "/opt/swift/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let compiled = try ProcessResult.run(["-shared", "-fPIC", "-o", library, source], executable: try #require(compiler))
        #expect(compiled.status == 0, "\(compiled.stderr)")

        for attempt in 0..<3 {
            let status = try spawn([TestPaths.executable, "run", "--config", "/nonexistent/vitrine.toml"],
                                   environment: ["LD_PRELOAD=" + library])
            #expect(status & 0x7f == 0, "attempt \(attempt): killed by signal \(status & 0x7f)")
            #expect((status >> 8) & 0xff == 2, "attempt \(attempt): exit status \((status >> 8) & 0xff)")
        }
        // The probe itself works: a program that does not block SIGHUP dies of it.
        let control = try spawn(["/bin/true"], environment: ["LD_PRELOAD=" + library])
        #expect(control & 0x7f == SIGHUP)
    }

    /// A SIGHUP that arrives while the dynamic loader still maps the libraries, before any of the
    /// program's code (CEarlySignals' preinit entry included) can block it: an LD_AUDIT library,
    /// which the loader calls as it starts, sends it. The program run directly dies of it; through
    /// the installed launcher (Sources/vitrine-launcher, built here as the Makefile builds it),
    /// which blocks the signals before it executes the program, `run` lives on to its own exit.
    @Test func aSIGHUPInsideTheDynamicLoaderDoesNotKillRunThroughTheLauncher() throws {
        let folder = try TemporaryDirectory("loader-hup")
        defer { folder.remove() }
        let auditSource = folder.file("audit.c"), audit = folder.file("audit.so"), launcher = folder.file("vitrine")
        try """
            #include <link.h>
            #include <signal.h>
            #include <unistd.h>
            unsigned int la_version(unsigned int version) { kill(getpid(), SIGHUP); return version; }
            """.write(toFile: auditSource, atomically: true, encoding: .utf8)
        let compiler = try #require(["/usr/bin/cc", "/usr/bin/clang", "/opt/swift/usr/bin/clang"]
            .first { FileManager.default.isExecutableFile(atPath: $0) })
        let auditBuilt = try ProcessResult.run(["-shared", "-fPIC", "-o", audit, auditSource], executable: compiler)
        #expect(auditBuilt.status == 0, "\(auditBuilt.stderr)")
        let launcherBuilt = try ProcessResult.run([
            "-static", "-O2", "-Wall", "-Wextra", "-Werror", "-I", TestPaths.root.appendingPathComponent("Sources/CLinux/include").path,
            "-DVITRINE_PROGRAM=\"\(TestPaths.executable)\"", "-o", launcher,
            TestPaths.root.appendingPathComponent("Sources/vitrine-launcher/launcher.c").path,
        ], executable: compiler)
        try #require(launcherBuilt.status == 0, "\(launcherBuilt.stderr)")

        // The probe works: the program itself dies of the signal, its preinit entry comes too late.
        let direct = try spawn([TestPaths.executable, "run", "--config", "/nonexistent/vitrine.toml"],
                               environment: ["LD_AUDIT=" + audit])
        #expect(direct & 0x7f == SIGHUP, "status \(direct): the audit library's SIGHUP did not arrive in the loader")
        for attempt in 0..<3 {
            let status = try spawn([launcher, "run", "--config", "/nonexistent/vitrine.toml"], environment: ["LD_AUDIT=" + audit])
            #expect(status & 0x7f == 0, "attempt \(attempt): killed by signal \(status & 0x7f)")
            #expect((status >> 8) & 0xff == 2, "attempt \(attempt): exit status \((status >> 8) & 0xff)")
        }
    }

    /// Spawns `arguments` with an empty signal mask and every kiosk signal at its default, output
    /// to /dev/null, `environment` added; the wait status.
    private func spawn(_ arguments: [String], environment: [String]) throws -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGTERM] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let inherited = ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" }.map { "\($0)=\($1)" }
        let environ = (inherited + environment).map { strdup($0) } + [nil]
        defer { (argv + environ).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return status
    }

    /// The commands a person runs keep Ctrl-C and SIGTERM as they expect: blocked only for `run`.
    @Test func simulateEndsOnSIGINTAndSIGTERMAsUsual() throws {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let run = try RunningProcess(["simulate", "--size", "320x200", "--photos", TestPaths.samplePhotos,
                                          "--duration", "3600"])
            usleep(300_000)
            run.signal(signal)
            let exit = run.wait(timeout: 10)
            #expect(exit.status == signal, "signal \(signal): \(exit.stderr)")
        }
    }
}
