import Foundation
import Glibc
import SystemPackage
import Testing
@testable import Linux

/// EINTR is retried in one helper, only where asked, and never for close(2).
@Suite(.serialized) struct SystemCallTests {
    /// A SIGUSR1 handler installed without SA_RESTART: a blocking read it interrupts fails with
    /// EINTR instead of being restarted by the kernel.
    static func withInterruptingHandler(_ body: () throws -> Void) rethrows {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(SIGUSR1, &action, &previous)
        defer { sigaction(SIGUSR1, &previous, nil) }
        try body()
    }

    /// A read of an empty pipe on a thread of its own through `systemCall`, signalled until it has
    /// been interrupted at least once; then `finish` runs and the outcome is returned.
    static func interruptedRead(retry: Bool, finish: (Int32) -> Void) throws -> (Result<Int, SystemError>, attempts: Int) {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let lock = NSLock()
        var attempts = 0
        let reader = Background { () -> Result<Int, SystemError> in
            // The test runner's threads block SIGUSR1, and new threads inherit that.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            var byte: UInt8 = 0
            return Result { () throws(SystemError) in
                try systemCall("read", path: "pipe", retryOnInterrupt: retry) {
                    lock.withLock { attempts += 1 }
                    return read(ends[0], &byte, 1)
                }
            }
        }
        let thread = try #require(reader.threadID)
        let deadline = Date().addingTimeInterval(10)
        // Interrupted once: with retry the body runs again; without, the read returns.
        while Date() < deadline, !reader.isFinished, lock.withLock({ attempts < 2 }) {
            pthread_kill(thread, SIGUSR1)
            usleep(5_000)
        }
        finish(ends[1])
        let result = try #require(reader.wait(seconds: 10))
        return (result, lock.withLock { attempts })
    }

    @Test func anInterruptedReadIsRetriedUntilItGetsTheData() throws {
        try Self.withInterruptingHandler {
            let (result, attempts) = try Self.interruptedRead(retry: true) { write($0, "x", 1) }
            #expect(try result.get() == 1)
            #expect(attempts >= 2, "the read was interrupted and run again")
        }
    }

    @Test func withoutRetryAnInterruptedReadFailsWithEINTR() throws {
        try Self.withInterruptingHandler {
            let (result, attempts) = try Self.interruptedRead(retry: false) { write($0, "x", 1) }
            #expect(throws: SystemError("read", path: "pipe", errno: .interrupted)) { try result.get() }
            #expect(attempts == 1)
        }
    }

    @Test func closeIsNeverRetried() {
        var calls = 0
        #expect(throws: SystemError("close", path: "test", errno: .interrupted)) {
            try OwnedDescriptor.close(42, name: "test") { _ in
                calls += 1
                errno = EINTR
                return -1
            }
        }
        #expect(calls == 1)
    }

    @Test func anOwnedDescriptorClosesOnceAndThenReportsMinusOne() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let read = OwnedDescriptor(rawValue: ends[0], name: "pipe")
        let write = OwnedDescriptor(rawValue: ends[1], name: "pipe")
        try write.close()
        try write.close()
        #expect(!write.isOpen && write.rawValue == -1)
        #expect(fcntl(ends[1], F_GETFD) == -1)
        try read.close()
    }

    @Test func libdrmsNegativeErrnoAndMinusOneWithErrnoAreBothRead() {
        #expect(throws: SystemError("drmModeSetCrtc", path: "CRTC 31", errno: .resourceBusy)) {
            try systemCall("drmModeSetCrtc", path: "CRTC 31", convention: .negativeErrno) { -EBUSY }
        }
        #expect(throws: SystemError("drmHandleEvent", errno: .ioError)) {
            try systemCall("drmHandleEvent", convention: .negativeErrno) { () -> Int32 in
                errno = EIO
                return -1
            }
        }
        #expect(throws: Never.self) { try systemCall("ok", convention: .negativeErrno) { Int32(3) } }
    }

    @Test func aNullPointerWithoutErrnoIsOutOfMemory() {
        #expect(throws: SystemError("drmModeGetResources", errno: .noMemory)) {
            try systemCallPointer("drmModeGetResources") { () -> UnsafeMutableRawPointer? in nil }
        }
    }
}
