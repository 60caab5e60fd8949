import Foundation
import Glibc
@testable import Linux
import TestSupport
import Testing

/// Any time a file may say, read without a trap and exactly (issue #22: a file dated after
/// 2262-04-11 killed the process with SIGILL).
@Suite struct FileTimeTests {
    @Test func aFileDated2300IsStatedAndOpenedWithItsExactTime() throws {
        let folder = try TemporaryDirectory("filetime")
        defer { folder.remove() }
        let path = folder.file("future.jpg")
        try writeBytes(Array(repeating: 7, count: 1000), to: path)
        try FarFutureFiles.setModified(path, seconds: FarFutureFiles.year2300, nanoseconds: 123_456_789)

        let status = try FileStatus(path: path)
        #expect(status.modified == FileTime(seconds: Int64(FarFutureFiles.year2300), nanoseconds: 123_456_789))
        #expect(status.modifiedSeconds == Int64(FarFutureFiles.year2300))
        #expect(status.size == 1000)
        let file = try RegularFile(path: path)
        defer { file.close() }
        #expect(file.modified == status.modified)
        #expect(file.modified.saturatingNanoseconds == .max)
        #expect(file.modified.exactText == "10413792000123456789")
        #expect(try file.readAll(limit: 1000).count == 1000)
        #expect(try RegularFile.read(path, limit: .max).count == 1000)
    }

    /// Whatever the file system keeps of the most extreme times (the kernel clamps to its range),
    /// stat and open read it back.
    @Test func theFileSystemsExtremeTimesAreReadBackAsStatSaysThem() throws {
        let folder = try TemporaryDirectory("filetime-extreme")
        defer { folder.remove() }
        let path = folder.file("f")
        try writeBytes([1], to: path)
        for seconds in [Int.max, Int.min, -FarFutureFiles.year2300, 9_223_372_036, -9_223_372_037] {
            try? FarFutureFiles.setModified(path, seconds: seconds, nanoseconds: 999_999_999)
            let stated = try #require(FarFutureFiles.modifiedSeconds(path))
            #expect(try FileStatus(path: path).modifiedSeconds == Int64(stated))
            let file = try RegularFile(path: path)
            #expect(file.modified.seconds == Int64(stated))
            file.close()
        }
    }

    @Test func aTimespecOfAnyValueIsOneExactTime() {
        // In range: the nanoseconds since the epoch, as before.
        #expect(FileTime(timespec(tv_sec: 1_700_000_000, tv_nsec: 1)).saturatingNanoseconds == 1_700_000_000_000_000_001)
        #expect(FileTime(nanosecondsSinceEpoch: 1_700_000_000_000_000_001).exactText == "1700000000000000001")
        #expect(FileTime(nanosecondsSinceEpoch: -1).exactText == "-1")
        #expect(FileTime(nanosecondsSinceEpoch: -1) == FileTime(seconds: -1, nanoseconds: 999_999_999))
        #expect(FileTime(nanosecondsSinceEpoch: .min).saturatingNanoseconds == .min)
        #expect(FileTime(nanosecondsSinceEpoch: .max).exactText == String(Int64.max))
        // Out of range: saturating as a count, exact as text, ordered.
        let late = FileTime(timespec(tv_sec: .max, tv_nsec: 999_999_999))
        #expect(late.saturatingNanoseconds == .max)
        #expect(late.exactText == String(Int64.max) + "999999999")
        let early = FileTime(timespec(tv_sec: .min, tv_nsec: 1))
        #expect(early.saturatingNanoseconds == .min)
        #expect(early.exactText == "-9223372036854775807999999999")
        #expect(FileTime(seconds: -10_000_000_000, nanoseconds: 0).exactText == "-10000000000000000000")
        #expect(early < FileTime(seconds: 0) && FileTime(seconds: 0) < late)
        #expect(FileTime(seconds: 10, nanoseconds: 1) != FileTime(seconds: 11, nanoseconds: 1))
        // A corrupt tv_nsec carries into the seconds, saturating at the ends.
        #expect(FileTime(timespec(tv_sec: 5, tv_nsec: 2_500_000_000)) == FileTime(seconds: 7, nanoseconds: 500_000_000))
        #expect(FileTime(timespec(tv_sec: 5, tv_nsec: -1)) == FileTime(seconds: 4, nanoseconds: 999_999_999))
        #expect(FileTime(timespec(tv_sec: .max, tv_nsec: .max)) == FileTime(seconds: .max, nanoseconds: 999_999_999))
        #expect(FileTime(timespec(tv_sec: .min, tv_nsec: .min)) == FileTime(seconds: .min, nanoseconds: 0))
        #expect(late.secondsSinceEpoch.isFinite && early.secondsSinceEpoch.isFinite)
    }

    @Test func aTimerDeadlineOfAnyDoubleIsAValidTimespec() throws {
        for deadline in [Double.nan, .infinity, -.infinity, 1e300, -1e300, 0, -5, 9.223372036854775807e18, 2.75] {
            let spec = TimerFD.timespec(deadline)
            #expect(spec.tv_sec >= 0 && spec.tv_sec < 40_000_000_000, "\(deadline)")
            #expect((1...999_999_999).contains(spec.tv_nsec), "\(deadline)")
        }
        #expect(TimerFD.timespec(2.75).tv_sec == 2)
        #expect(abs(TimerFD.timespec(2.75).tv_nsec - 750_000_000) <= 1)
        // The kernel takes them: a deadline of NaN fires at once, one of 1e300 does not.
        let soon = try TimerFD(), never = try TimerFD()
        defer { soon.close(); never.close() }
        try soon.arm(at: .nan)
        try never.arm(at: 1e300)
        var fds = [pollfd(fd: soon.fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: never.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        #expect(poll(&fds, 2, 1000) == 1)
        #expect(fds[0].revents & Int16(POLLIN) != 0)
        #expect(fds[1].revents == 0)
    }
}
