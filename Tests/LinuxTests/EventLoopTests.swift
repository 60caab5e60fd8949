import Foundation
import Glibc
import SystemPackage
import Testing
@testable import Linux

@Suite struct EventLoopTests {
    @Test func anEventFDSignalledFromAnotherThreadWakesTheLoop() throws {
        let loop = try EventLoop()
        let wake = try EventFD()
        defer { wake.close(); loop.close() }
        var woken = 0
        try loop.watch(wake.fileDescriptor) { woken += Int(wake.drain()) }
        let thread = Thread { wake.signal() }
        thread.start()
        try loop.runOnce(timeout: 5)
        #expect(woken == 1)
    }

    @Test func anIdleLoopTimesOutWithNothingReady() throws {
        let loop = try EventLoop()
        let wake = try EventFD()
        defer { wake.close(); loop.close() }
        try loop.watch(wake.fileDescriptor) { Issue.record("nothing was signalled") }
        #expect(try loop.runOnce(timeout: 0.01) == 0)
    }

    @Test func aTimerFiresAtItsDeadlineAndIsDrained() throws {
        let loop = try EventLoop()
        let timer = try TimerFD()
        defer { timer.close(); loop.close() }
        var fired = 0
        try loop.watch(timer.fileDescriptor) { timer.drain(); fired += 1 }
        let start = MonotonicClock.now()
        try timer.arm(at: start + 0.02)
        try loop.runOnce(timeout: 5)
        #expect(fired == 1)
        #expect(MonotonicClock.now() >= start + 0.02)
        // Drained and one-shot: nothing more comes.
        #expect(try loop.runOnce(timeout: 0.05) == 0)
    }

    /// The opening hours' timer: on the wall clock, absolute, told when the clock is set (not
    /// tested by setting this machine's clock; the end-to-end test does that in its guest).
    @Test func aWallClockTimerFiresAtItsWallClockDeadline() throws {
        let loop = try EventLoop()
        let timer = try TimerFD(clock: .wall)
        defer { timer.close(); loop.close() }
        var expiries: [Bool] = []
        try loop.watch(timer.fileDescriptor) { expiries.append(timer.drain()) }
        let start = WallClock.now()
        try timer.arm(at: start + 0.02)
        try loop.runOnce(timeout: 5)
        // Expired, not cancelled by a clock change.
        #expect(expiries == [false])
        #expect(WallClock.now() >= start + 0.02)
        #expect(try loop.runOnce(timeout: 0.05) == 0)
    }

    @Test func aBlockedSignalArrivesThroughTheSignalFD() throws {
        let signals = try SignalFD(signals: [SIGUSR2])
        let loop = try EventLoop()
        defer { loop.close(); signals.close() }
        var received: [Int32] = []
        try loop.watch(signals.fileDescriptor) { received += signals.read() }
        // Directed at this thread, which blocks it: it stays pending until the signalfd reads it.
        pthread_kill(pthread_self(), SIGUSR2)
        try loop.runOnce(timeout: 5)
        #expect(received == [SIGUSR2])
    }

    @Test func aFailedCallNamesTheCallAndTheErrno() {
        #expect(throws: SystemError("open", path: "/nonexistent/x", errno: .noSuchFileOrDirectory)) {
            try systemCall("open", path: "/nonexistent/x") { open("/nonexistent/x", O_RDONLY) }
        }
        #expect(SystemError("open", path: "/dev/dri/card0", errno: .permissionDenied).description
                == "open /dev/dri/card0: Permission denied (EACCES)")
        #expect(SystemError("epoll_wait", errno: .badFileDescriptor).description == "epoll_wait: Bad file descriptor (EBADF)")
    }
}
